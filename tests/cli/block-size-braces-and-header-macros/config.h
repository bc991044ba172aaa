// config.h: the launch configuration a project keeps in a header of its own
#define BLOCK_X 16
#define BLOCK_Y (4 * 2)
#define BLOCK_WIDE BLOCK_X * 2
#define BLOCK_OF(n) (n)

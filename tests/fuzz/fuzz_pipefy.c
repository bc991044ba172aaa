/* fuzz_pipefy.c: libFuzzer over pipefy's text-in/text-out entry point.
 *
 * What must hold for every input, whatever its bytes:
 *   - no crash, no sanitizer report, no hang (libFuzzer's -timeout, 10 s in `make fuzz`);
 *   - the output is the input unchanged, or clang finds no more errors in it than in the input;
 *   - pipefy on its own output changes nothing (idempotence).
 * The input is named as if it sat in testdata/, so `#include "harness.cuh"` resolves.
 *
 * The custom mutator below knows two things about the inputs: the #include preamble is best
 * left alone (each new one costs a precompiled header, and the interesting code is the loop),
 * and what pipefy reasons about is the order of statements, so half its mutations move, copy
 * or drop whole lines of the body; the other half are libFuzzer's byte mutations of the body. */
#include "pipefy.h"

#include <stdint.h>
#include <stdlib.h>

static struct options options;
static char *input_name;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	char *err = NULL;
	char *args[] = {"pipefy", "-q", NULL};
	if (options_parse(&options, 2, args, &err) != 0)
		abort();
	input_name = xprintf("%s/testdata/fuzz-input.cu", FUZZ_SOURCE_DIR);
	return 0;
}

/* The fuzzing engine, its corpus and the checks above are all about bytes: fail loudly. */
static void invariant(bool holds, const char *what, const struct source *src, const char *output)
{
	if (holds)
		return;
	fprintf(stderr, "fuzz_pipefy: invariant broken: %s\n--- input\n%.*s\n--- output\n%s\n", what,
		(int)src->len, src->text, output ? output : "(none)");
	abort();
}

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* [begin, end) of line number `which` among the lines of text[0, n). */
static void nth_line(const uint8_t *text, size_t n, size_t which, size_t *begin, size_t *end)
{
	size_t at = 0;
	for (size_t line = 0; line < which && at < n; at++)
		if (text[at] == '\n')
			line++;
	*begin = at;
	while (at < n && text[at] != '\n')
		at++;
	*end = at < n ? at + 1 : at;
}

static size_t count_lines(const uint8_t *text, size_t n)
{
	size_t lines = 1;
	for (size_t i = 0; i < n; i++)
		lines += text[i] == '\n';
	return lines;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	srand(seed);
	size_t keep = preamble_length((const char *)data, size);
	uint8_t *body = data + keep;
	size_t n = size - keep, lines = count_lines(body, n);
	int op = rand() % 8;
	if (op >= 4 || lines < 2)
		return keep + LLVMFuzzerMutate(body, n, max_size - keep);
	size_t a0, a1, b0, b1;
	nth_line(body, n, (size_t)rand() % lines, &a0, &a1);
	nth_line(body, n, (size_t)rand() % lines, &b0, &b1);
	uint8_t *copy = xmalloc(n + (a1 - a0) + 1);
	size_t len = 0;
	if (op == 0) { /* drop line a */
		memcpy(copy, body, a0);
		memcpy(copy + a0, body + a1, n - a1);
		len = n - (a1 - a0);
	} else if (op == 1 && n + (a1 - a0) <= max_size - keep) { /* copy line a before line b */
		memcpy(copy, body, b0);
		memcpy(copy + b0, body + a0, a1 - a0);
		memcpy(copy + b0 + (a1 - a0), body + b0, n - b0);
		len = n + (a1 - a0);
	} else { /* move line a before line b (op 2), or swap them (op 3) */
		if (b0 < a0) {
			size_t t0 = a0, t1 = a1;
			a0 = b0, a1 = b1, b0 = t0, b1 = t1;
		}
		if (a1 > b0) { /* the same line twice */
			free(copy);
			return size;
		}
		len = 0;
		memcpy(copy + len, body, a0), len += a0;
		if (op == 3)
			memcpy(copy + len, body + b0, b1 - b0), len += b1 - b0;
		memcpy(copy + len, body + a1, b0 - a1), len += b0 - a1;
		memcpy(copy + len, body + a0, a1 - a0), len += a1 - a0;
		if (op != 3)
			memcpy(copy + len, body + b0, b1 - b0), len += b1 - b0;
		memcpy(copy + len, body + b1, n - b1), len += n - b1;
	}
	memcpy(body, copy, len);
	free(copy);
	return keep + len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* pipefy reads files as text: NUL bytes and invalid UTF-8 are refused at the door (by
	 * source_read, before pipefy_transform), so the invariants hold for the rest */
	if (memchr(data, 0, size) || size > 64 * 1024 || utf8_invalid_at((const char *)data, size) != (size_t)-1)
		return -1;
	struct source src;
	source_init_text(&src, input_name, (const char *)data, size);
	struct result first = pipefy_transform(&src, &options, NULL);
	invariant(first.output != NULL, "an output", &src, NULL);
	if (strcmp(first.output, src.text) != 0) {
		invariant(first.exit_code == 0, "output changed although the run failed", &src, first.output);
		struct source again;
		source_init_text(&again, input_name, first.output, strlen(first.output));
		struct result second = pipefy_transform(&again, &options, NULL);
		invariant(second.nerrors <= first.nerrors, "the rewrite added clang errors", &src, first.output);
		invariant(second.nrewritten == 0 && strcmp(second.output, first.output) == 0,
			  "pipefy changed its own output (not idempotent)", &src, second.output);
		free(second.output);
		edits_free(&second.edits);
		source_free(&again);
	}
	free(first.output);
	edits_free(&first.edits);
	source_free(&src);
	return 0;
}

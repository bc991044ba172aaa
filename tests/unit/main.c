/* main.c: runs every unit suite; the exit status is the number of failures. */
#include <stdlib.h>
#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(source_suite());
	srunner_add_suite(sr, options_suite());
	srunner_add_suite(sr, plan_suite());
	srunner_add_suite(sr, find_suite());
	srunner_add_suite(sr, parse_suite());
	srunner_add_suite(sr, emit_suite());
	srunner_add_suite(sr, variant_suite());
	srunner_add_suite(sr, gate_suite());
	srunner_add_suite(sr, validate_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

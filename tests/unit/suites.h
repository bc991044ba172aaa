/* suites.h: one Check suite per stage; main.c runs them all. */
#ifndef SUITES_H
#define SUITES_H
#include <check.h>
#include "pipefy.h"

Suite *source_suite(void);
Suite *options_suite(void);
Suite *plan_suite(void);
Suite *find_suite(void);
Suite *parse_suite(void);
Suite *emit_suite(void);
Suite *variant_suite(void);
Suite *gate_suite(void);
Suite *validate_suite(void);
#endif

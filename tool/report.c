/* report.c: the run's report as one document: each file's part (emit_report's) joined into one
 * JSON array, one YAML stream or one text. */
#include "pipefy.h"

#include <jansson.h>
#include <stdlib.h>

/* One JSON array of every part's records, in the order of the parts. */
static char *join_json(const char *const *parts, int n)
{
	json_t *all = json_array();
	for (int i = 0; i < n; i++) {
		json_t *part = parts[i] ? json_loads(parts[i], 0, NULL) : NULL;
		if (json_is_array(part))
			json_array_extend(all, part);
		json_decref(part);
	}
	char *s = json_dumps(all, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(all);
	char *doc = xprintf("%s\n", s ? s : "[]");
	free(s);
	return doc;
}

char *report_join(const char *format, const char *const *parts, int n)
{
	if (strcmp(format, "json") == 0)
		return join_json(parts, n);
	struct strbuf sb = {0};
	for (int i = 0; i < n; i++)
		if (parts[i])
			sb_puts(&sb, parts[i]);
	return sb.data ? sb_take(&sb) : xstrdup("");
}

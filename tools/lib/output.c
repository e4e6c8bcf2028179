// SPDX-License-Identifier: GPL-2.0
/*
 * Output options and JSON of the project's tools (see output.h).
 */
#include <stdio.h>
#include <string.h>

#include "genl.h"
#include "output.h"

bool json, pretty, stats;

bool output_option(const char *arg)
{
	if (!strcmp(arg, "-j") || !strcmp(arg, "-json"))
		json = true;
	else if (!strcmp(arg, "-p") || !strcmp(arg, "-pretty"))
		pretty = true;
	else if (!strcmp(arg, "-s") || !strcmp(arg, "-stats"))
		stats = true;
	else
		return false;
	return true;
}

static struct json_object *nonnull(struct json_object *val)
{
	if (!val)
		die("out of memory");
	return val;
}

struct json_object *jobject(void)
{
	return nonnull(json_object_new_object());
}

struct json_object *jarray(void)
{
	return nonnull(json_object_new_array());
}

/* @val NULL is JSON null. */
static void put(struct json_object *obj, const char *key,
		struct json_object *val)
{
	if (json_object_object_add(obj, key, val))
		die("out of memory");
}

void jput(struct json_object *obj, const char *key, struct json_object *val)
{
	put(obj, key, nonnull(val));
}

void jput_str(struct json_object *obj, const char *key, const char *s)
{
	jput(obj, key, json_object_new_string(s));
}

void jput_u64(struct json_object *obj, const char *key, uint64_t v)
{
	jput(obj, key, json_object_new_uint64(v));
}

void jput_bool(struct json_object *obj, const char *key, bool v)
{
	jput(obj, key, json_object_new_boolean(v));
}

void jput_null(struct json_object *obj, const char *key)
{
	put(obj, key, NULL);
}

/*
 * json-c writes a double with all its digits (%.17g); the text given here
 * is written instead, as the text output rounds it.
 */
void jput_fixed(struct json_object *obj, const char *key, double v,
		int decimals)
{
	char s[64];

	snprintf(s, sizeof(s), "%.*f", decimals, v);
	jput(obj, key, json_object_new_double_s(v, s));
}

void jappend(struct json_object *arr, struct json_object *val)
{
	if (json_object_array_add(arr, nonnull(val)))
		die("out of memory");
}

/* "/" as is: JSON allows it unescaped, and subnets read better. */
static void print(struct json_object *val, int flags)
{
	const char *s;

	s = json_object_to_json_string_ext(val, flags |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		die("out of memory");
	puts(s);
	json_object_put(val);
}

void jprint(struct json_object *val)
{
	print(val, pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
	      JSON_C_TO_STRING_PLAIN);
}

void jprint_line(struct json_object *val)
{
	print(val, JSON_C_TO_STRING_PLAIN);
	fflush(stdout);
}

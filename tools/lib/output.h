/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the project's tools (sunh, superp) print, beyond plain text: the
 * output options they share (-j, -p, -s) and their JSON, built with json-c
 * (Debian: libjson-c-dev), which escapes strings and keeps every u64 exact.
 */
#ifndef TOOLS_OUTPUT_H
#define TOOLS_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

extern bool json;	/* -j, -json: JSON instead of text */
extern bool pretty;	/* -p, -pretty: JSON indented (only with -j) */
extern bool stats;	/* -s, -stats: counters with the objects shown */

/*
 * Takes @arg if it is one of the options above (true) or leaves it to the
 * caller (false).
 */
bool output_option(const char *arg);

/*
 * Building JSON: new objects and arrays, members and elements. Running out
 * of memory is fatal, so that no output lacks a member silently. Members
 * keep the order they are added in.
 */
struct json_object *jobject(void);
struct json_object *jarray(void);
void jput(struct json_object *obj, const char *key, struct json_object *val);
void jput_str(struct json_object *obj, const char *key, const char *s);
void jput_u64(struct json_object *obj, const char *key, uint64_t v);
void jput_bool(struct json_object *obj, const char *key, bool v);
void jput_null(struct json_object *obj, const char *key);
/* A number written with @decimals digits after the point. */
void jput_fixed(struct json_object *obj, const char *key, double v,
		int decimals);
void jappend(struct json_object *arr, struct json_object *val);

/*
 * Printing, on standard output, then freeing: jprint() a whole output (one
 * line, or indented with -p); jprint_line() one object of a stream (monitor
 * events, ping replies), always one compact line, flushed at once so that
 * whoever reads the stream line by line gets each object as it comes.
 */
void jprint(struct json_object *val);
void jprint_line(struct json_object *val);

#endif /* TOOLS_OUTPUT_H */

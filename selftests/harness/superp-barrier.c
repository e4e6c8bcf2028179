// SPDX-License-Identifier: GPL-2.0
/*
 * superp-barrier: wait until every guest of a test topology reaches the same
 * named point. Guest 1 coordinates: it collects one "NAME ID WORD" line from
 * each other guest over TCP, then releases them all with "go" and every
 * guest's word, in the order of their ids. A guest that arrives with another
 * name is a desynchronised test: everyone fails.
 *
 * A guest that passes WORD prints the words of all ("-" for one that passed
 * none), one line: how the guests of a test agree on what to do next (run
 * a step again, say), which no guest can tell alone.
 *
 * usage: superp-barrier COORDINATOR_IP MY_ID NGUESTS NAME [TIMEOUT_S [WORD]]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define BARRIER_PORT	7700
#define MAX_GUESTS	64
#define WORD_MAX	32

static time_t deadline;
static char words[MAX_GUESTS][WORD_MAX + 1];
static int print_words;

static int fail(const char *what)
{
	fprintf(stderr, "superp-barrier: %s: %s\n", what, strerror(errno));
	return 1;
}

static void set_timeouts(int fd)
{
	struct timeval tv = { .tv_sec = deadline - time(NULL) };

	if (tv.tv_sec < 1)
		tv.tv_sec = 1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static int read_line(int fd, char *buf, size_t len)
{
	size_t n = 0;

	while (n + 1 < len) {
		ssize_t r = read(fd, buf + n, 1);

		if (r <= 0)
			return -1;
		if (buf[n] == '\n')
			break;
		n++;
	}
	buf[n] = '\0';
	return 0;
}

/* The words of a release line ("go W1 W2 ...\n"), if this guest passed one. */
static void printf_words(const char *release)
{
	const char *w = strncmp(release, "go ", 3) ? "" : release + 3;

	if (print_words)
		printf("%.*s\n", (int)strcspn(w, "\n"), w);
}

/* "go" and the words of guests 1..NGUESTS, space-separated, into BUF. */
static void release_line(char *buf, size_t len, int nguests)
{
	size_t n = snprintf(buf, len, "go");
	int i;

	for (i = 0; i < nguests && n < len; i++)
		n += snprintf(buf + n, len - n, " %s", words[i]);
	if (n + 1 < len)
		strcpy(buf + n, "\n");
}

static int coordinate(int nguests, const char *name)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(BARRIER_PORT) };
	int peers[MAX_GUESTS], npeers = 0, lfd, one = 1, i, id, err = 0;
	char line[256], want[256], word[WORD_MAX + 1], reply[MAX_GUESTS * (WORD_MAX + 1) + 8];

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		return fail("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, MAX_GUESTS))
		return fail("bind/listen");
	set_timeouts(lfd);

	while (npeers < nguests - 1) {
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0)
			return fail("accept (timed out waiting for guests?)");
		set_timeouts(fd);
		if (read_line(fd, line, sizeof(line))) {
			close(fd);	/* a stale connect from a retrying guest */
			continue;
		}
		snprintf(want, sizeof(want), "%s ", name);
		if (strncmp(line, want, strlen(want))) {
			fprintf(stderr, "superp-barrier: at '%s', a guest says '%s'\n",
				name, line);
			err = 1;
		} else if (sscanf(line + strlen(want), "%d %32s", &id, word) == 2 &&
			   id > 1 && id <= nguests) {
			strcpy(words[id - 1], word);
		}
		peers[npeers++] = fd;
	}
	/* Close the listener first so no later barrier's guest queues on it. */
	close(lfd);
	if (err)
		strcpy(reply, "mismatch\n");
	else
		release_line(reply, sizeof(reply), nguests);
	for (i = 0; i < npeers; i++) {
		if (write(peers[i], reply, strlen(reply)) < 0)
			err = 1;
		close(peers[i]);
	}
	if (!err)
		printf_words(reply);
	return err;
}

static int join(const char *coord, int id, const char *name)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(BARRIER_PORT) };
	char line[MAX_GUESTS * (WORD_MAX + 1) + 8];

	if (inet_pton(AF_INET, coord, &sa.sin_addr) != 1) {
		fprintf(stderr, "superp-barrier: bad address %s\n", coord);
		return 1;
	}
	while (time(NULL) < deadline) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0)
			return fail("socket");
		set_timeouts(fd);
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
		    dprintf(fd, "%s %d %s\n", name, id, words[id - 1]) > 0 &&
		    read_line(fd, line, sizeof(line)) == 0) {
			close(fd);
			if (strcmp(line, "go") && strncmp(line, "go ", 3)) {
				fprintf(stderr, "superp-barrier: '%s': %s\n", name, line);
				return 1;
			}
			printf_words(line);
			return 0;
		}
		close(fd);
		usleep(100 * 1000);
	}
	fprintf(stderr, "superp-barrier: timed out at '%s'\n", name);
	return 1;
}

int main(int argc, char **argv)
{
	int id, nguests, i;

	if (argc < 5 || argc > 7) {
		fprintf(stderr, "usage: %s COORDINATOR_IP MY_ID NGUESTS NAME [TIMEOUT_S [WORD]]\n",
			argv[0]);
		return 2;
	}
	id = atoi(argv[2]);
	nguests = atoi(argv[3]);
	deadline = time(NULL) + (argc >= 6 ? atoi(argv[5]) : 300);
	if (nguests < 1 || nguests > MAX_GUESTS || id < 1 || id > nguests) {
		fprintf(stderr, "superp-barrier: bad id %d of %d\n", id, nguests);
		return 2;
	}
	for (i = 0; i < nguests; i++)
		strcpy(words[i], "-");
	if (argc == 7) {
		if (!*argv[6] || strlen(argv[6]) > WORD_MAX || strpbrk(argv[6], " \t\n")) {
			fprintf(stderr, "superp-barrier: a word is 1 to %d characters, no space\n",
				WORD_MAX);
			return 2;
		}
		strcpy(words[id - 1], argv[6]);
		print_words = 1;
	}
	if (nguests == 1) {
		if (print_words)
			printf("%s\n", words[0]);
		return 0;
	}
	return id == 1 ? coordinate(nguests, argv[4]) : join(argv[1], id, argv[4]);
}

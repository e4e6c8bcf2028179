// SPDX-License-Identifier: GPL-2.0
/*
 * superp-gen: where frames go: a pcap file, an AF_PACKET socket, or (the
 * SUPERp part only) a UDP socket.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <net/if.h>
#include <linux/if_packet.h>
#include <linux/if_ether.h>
#include <netinet/in.h>
#include "gen.h"

#define PCAP_MAGIC	0xa1b2c3d4U
#define LINKTYPE_ETHERNET 1

static int put32(FILE *fp, uint32_t v)
{
	return fwrite(&v, 4, 1, fp) == 1 ? 0 : -1;
}

static int put16h(FILE *fp, uint16_t v)
{
	return fwrite(&v, 2, 1, fp) == 1 ? 0 : -1;
}

/* Classic pcap in host byte order; append adds to an existing file. */
int out_pcap_open(const char *path, int append, FILE **fp)
{
	struct stat st;
	int fresh = !append || stat(path, &st) || !st.st_size;

	*fp = fopen(path, fresh ? "wb" : "ab");
	if (!*fp)
		return -1;
	if (!fresh)
		return 0;
	if (put32(*fp, PCAP_MAGIC) || put16h(*fp, 2) || put16h(*fp, 4) ||
	    put32(*fp, 0) || put32(*fp, 0) || put32(*fp, 65535) ||
	    put32(*fp, LINKTYPE_ETHERNET))
		return -1;
	return 0;
}

int out_pcap_write(FILE *fp, const uint8_t *buf, size_t len)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	if (put32(fp, tv.tv_sec) || put32(fp, tv.tv_usec) ||
	    put32(fp, len) || put32(fp, len))
		return -1;
	return fwrite(buf, 1, len, fp) == len ? 0 : -1;
}

int out_packet_open(const char *ifname, int *fd, int *ifindex)
{
	*ifindex = if_nametoindex(ifname);
	if (!*ifindex)
		return -1;
	*fd = socket(AF_PACKET, SOCK_RAW, 0);
	return *fd < 0 ? -1 : 0;
}

/* The frame goes out as built: no header is added by the kernel. */
int out_packet_send(int fd, int ifindex, const uint8_t *buf, size_t len)
{
	struct sockaddr_ll sll;

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = ifindex;
	sll.sll_halen = ETH_ALEN;
	memcpy(sll.sll_addr, buf, ETH_ALEN);
	return sendto(fd, buf, len, 0, (struct sockaddr *)&sll,
		      sizeof(sll)) == (ssize_t)len ? 0 : -1;
}

/* A UDP socket bound to the frame's source port, any local address. */
int out_udp_open(const struct gen_frame *f, int *fd)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in a4 = { .sin_family = AF_INET };
	int v6 = f->encap == ENCAP_IPV6;

	*fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
	if (*fd < 0)
		return -1;
	a4.sin_port = htons(f->sport);
	a6.sin6_port = htons(f->sport);
	if (v6 ? bind(*fd, (struct sockaddr *)&a6, sizeof(a6)) :
		 bind(*fd, (struct sockaddr *)&a4, sizeof(a4)))
		return -1;
	return 0;
}

/*
 * The SUPERp part of a frame to --dst-ip --dport. A full queue is waited
 * out; an ICMP error from an earlier datagram is not this one's.
 */
int out_udp_send(int fd, const struct gen_frame *f, const uint8_t *buf,
		 size_t len)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6,
				   .sin6_addr = f->dip6 };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_addr = f->dip4 };
	int v6 = f->encap == ENCAP_IPV6;
	ssize_t n;

	a4.sin_port = htons(f->dport);
	a6.sin6_port = htons(f->dport);
	do {
		n = v6 ? sendto(fd, buf, len, 0, (struct sockaddr *)&a6,
				sizeof(a6)) :
			 sendto(fd, buf, len, 0, (struct sockaddr *)&a4,
				sizeof(a4));
		if (n < 0 && errno == ENOBUFS)
			usleep(1000);
	} while (n < 0 && (errno == ENOBUFS || errno == EINTR));
	if (n < 0 && errno == ECONNREFUSED)
		return 0;
	return n == (ssize_t)len ? 0 : -1;
}

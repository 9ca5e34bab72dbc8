/*
 * formats.c - the format table: names, extensions and the descriptors of
 * ordo_formats.h, and the lookups load.c, the binaries and the help use.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "io_internal.h"

static const struct io_format *const table[ORDO_FMT_COUNT] = {
#define ORDO_FORMAT(ID, descriptor) [ORDO_FMT_##ID] = &descriptor,
#include "ordo_formats.h"
#undef ORDO_FORMAT
};

const struct io_format *io_format(int fmt)
{
	return fmt > ORDO_FMT_AUTO && fmt < ORDO_FMT_COUNT ? table[fmt] : NULL;
}

const struct ordo_format_info *ordo_format_info(int fmt)
{
	const struct io_format *f = io_format(fmt);
	return f ? &f->info : NULL;
}

const char *ordo_format_name(int fmt)
{
	if (fmt == ORDO_FMT_AUTO)
		return "auto";
	const struct io_format *f = io_format(fmt);
	return f ? f->info.name : "unknown";
}

/* True when `word` is one of the space-separated words of `list`. */
static bool in_list(const char *list, const char *word, bool fold_case)
{
	size_t len = strlen(word);
	for (const char *p = list; p && *p;) {
		while (*p == ' ')
			p++;
		const char *e = strchr(p, ' ');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l == len && l && (fold_case ? !strncasecmp(p, word, l) : !strncmp(p, word, l)))
			return true;
		p += l;
	}
	return false;
}

int ordo_format_from_name(const char *name)
{
	if (!strcmp(name, "auto"))
		return ORDO_FMT_AUTO;
	for (int i = 1; i < ORDO_FMT_COUNT; i++)
		if (!strcmp(table[i]->info.name, name) ||
		    in_list(table[i]->info.aliases, name, false))
			return i;
	return -1;
}

char *ordo_format_names(unsigned flags, char *buf, size_t cap)
{
	size_t used = 0;
	buf[0] = 0;
	for (int i = 1; i < ORDO_FMT_COUNT; i++)
		if ((table[i]->info.flags & flags) == flags && used < cap)
			used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? " " : "",
			                         table[i]->info.name);
	return buf;
}

void ordo_format_print_table(FILE *f, unsigned flags)
{
	fprintf(f, "%-9s %-11s %s\n", "format", "access", "extensions (a .zst suffix aside)");
	for (int i = 1; i < ORDO_FMT_COUNT; i++) {
		const struct ordo_format_info *x = &table[i]->info;
		if ((x->flags & flags) != flags)
			continue;
		char exts[64] = "", acc[16];
		size_t used = 0;
		for (const char *p = x->exts; *p && used + 2 < sizeof exts; p++) {
			if (p == x->exts || p[-1] == ' ')
				exts[used++] = '.';
			exts[used++] = *p;
			exts[used] = 0;
		}
		snprintf(acc, sizeof acc, "%s%s", x->flags & ORDO_FORMAT_READ ? "read" : "",
		         x->flags & ORDO_FORMAT_WRITE
		             ? (x->flags & ORDO_FORMAT_READ ? "/write" : "write")
		             : "");
		fprintf(f, "%-9s %-11s %s\n%-21s %s\n", x->name, acc, exts, "", x->summary);
	}
	fprintf(f, "Text formats may be zstd-compressed (detected by content, any name).\n"
	           "Input formats are detected by content; the extension decides only where\n"
	           "the content cannot.\n");
}

/* extension without a trailing .zst */
static const char *ext_of(const char *path, char *buf, size_t cap)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	snprintf(buf, cap, "%s", base);
	size_t len = strlen(buf);
	if (len > 4 && !strcasecmp(buf + len - 4, ".zst"))
		buf[len - 4] = 0;
	char *dot = strrchr(buf, '.');
	return dot ? dot + 1 : "";
}

bool io_has_ext(const char *path, const char *ext)
{
	char b[256];
	return !strcasecmp(ext_of(path, b, sizeof b), ext);
}

int ordo_format_of_extension(const char *path)
{
	char b[256];
	const char *x = ext_of(path, b, sizeof b);
	if (!*x)
		return -1;
	for (int i = 1; i < ORDO_FMT_COUNT; i++)
		if (in_list(table[i]->info.exts, x, true))
			return i;
	return -1;
}

int ordo_format_for_output(const char *path)
{
	const int f = ordo_format_of_extension(path);
	return f < 0 ? ORDO_FMT_EDGELIST : f;
}

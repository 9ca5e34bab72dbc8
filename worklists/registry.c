/* registry.c - the scheduler table built from ORDO_SCHEDULER_LIST, and spec parsing. */
#include <string.h>

#include "ordo_schedulers.h"
#include "registry.h"

#define DECLARE(id) extern const struct ordo_scheduler_ops ordo_scheduler_##id;
ORDO_SCHEDULER_LIST(DECLARE)
#undef DECLARE

static const struct ordo_scheduler_ops *const table[] = {
#define ENTRY(id) &ordo_scheduler_##id,
    ORDO_SCHEDULER_LIST(ENTRY)
#undef ENTRY
};

int ordo_scheduler_count(void)
{
	return (int)(sizeof table / sizeof table[0]);
}

const struct ordo_scheduler_ops *ordo_scheduler_at(int i)
{
	return i >= 0 && i < ordo_scheduler_count() ? table[i] : NULL;
}

const struct ordo_scheduler_ops *ordo_scheduler_find(const char *name)
{
	for (int i = 0; i < ordo_scheduler_count(); i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

static int names(char *buf, size_t cap)
{
	size_t used = 0;
	for (int i = 0; i < ordo_scheduler_count() && used < cap; i++)
		used +=
		    (size_t)snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", table[i]->name);
	return 0;
}

/* The index of parameter `key` of ops, -1 when it has none. */
static int param_index(const struct ordo_scheduler_ops *ops, const char *key)
{
	for (int i = 0; i < ops->nparams; i++)
		if (!strcmp(ops->params[i].name, key))
			return i;
	return -1;
}

static void format_spec(struct ordo_sched_spec *s)
{
	ordo_params_format(s->spec, sizeof s->spec, s->ops->name, s->ops->params, s->ops->nparams,
	                   s->params);
}

int ordo_sched_parse(const char *spec, struct ordo_sched_spec *out, struct ordo_err *err)
{
	memset(out, 0, sizeof *out);
	struct ordo_spec s;
	int rc = ordo_spec_parse(spec, &s, err);
	if (rc)
		return rc;
	const struct ordo_scheduler_ops *ops = ordo_scheduler_find(s.name);
	if (!ops) {
		char list[512];
		names(list, sizeof list);
		return ordo_err_set(err, ORDO_EINVAL, "unknown scheduler '%s'; accepted: %s",
		                    s.name, list);
	}
	char what[96];
	snprintf(what, sizeof what, "scheduler %s", ops->name);
	if ((rc = ordo_params_resolve(what, ops->params, ops->nparams, &s, out->params, err)))
		return rc;
	out->ops = ops;
	for (int k = 0; k < s.nkv; k++)
		out->given |= 1u << param_index(ops, s.key[k]); /* resolve checked the keys */
	format_spec(out);
	return 0;
}

bool ordo_sched_unset(const struct ordo_sched_spec *s, const char *key)
{
	const int i = param_index(s->ops, key);
	return i >= 0 && !(s->given & (1u << i));
}

int ordo_sched_default(struct ordo_sched_spec *s, const char *key, int64_t value, bool *has,
                       struct ordo_err *err)
{
	/* a number stays a number: checked against the parameter's range, as a spec's is,
	 * and set in place (no text to format and parse again) */
	const int i = param_index(s->ops, key);
	if (has)
		*has = i >= 0;
	if (!ordo_sched_unset(s, key))
		return 0;
	char what[96];
	snprintf(what, sizeof what, "scheduler %s", s->ops->name);
	int rc = ordo_param_check(what, &s->ops->params[i], value, err);
	if (rc)
		return rc;
	s->params[i] = value;
	s->given |= 1u << i;
	format_spec(s);
	return 0;
}

int ordo_sched_defaults(struct ordo_sched_spec *s, const char *list, struct ordo_err *err)
{
	if (!list || !*list)
		return 0;
	char tmp[300];
	snprintf(tmp, sizeof tmp, "%s:%s", s->ops->name, list);
	struct ordo_spec kv, keep = {.nkv = 0};
	int rc = ordo_spec_parse(tmp, &kv, err);
	if (rc)
		return rc;
	/* the keys this scheduler has and the spec left unset, resolved as a spec's are */
	for (int k = 0; k < kv.nkv; k++) {
		const int i = param_index(s->ops, kv.key[k]);
		if (i < 0 || (s->given & (1u << i)))
			continue;
		memcpy(keep.key[keep.nkv], kv.key[k], sizeof keep.key[0]);
		memcpy(keep.val[keep.nkv], kv.val[k], sizeof keep.val[0]);
		keep.nkv++;
	}
	int64_t vals[ORDO_MAX_PARAMS];
	char what[96];
	snprintf(what, sizeof what, "scheduler %s", s->ops->name);
	if (!keep.nkv ||
	    (rc = ordo_params_resolve(what, s->ops->params, s->ops->nparams, &keep, vals, err)))
		return rc;
	for (int k = 0; k < keep.nkv; k++) {
		const int i = param_index(s->ops, keep.key[k]);
		s->params[i] = vals[i];
		s->given |= 1u << i;
	}
	format_spec(s);
	return 0;
}

int ordo_sched_create(const struct ordo_sched_spec *s, const struct ordo_topology *topo,
                      uint64_t seed, struct ordo_scheduler *out, struct ordo_err *err)
{
	memset(out, 0, sizeof *out);
	out->ops = s->ops;
	memcpy(out->params, s->params, sizeof out->params);
	snprintf(out->spec, sizeof out->spec, "%s", s->spec);
	struct ordo_scheduler_config cfg = {.topo = topo, .params = out->params, .seed = seed};
	int rc = s->ops->create(&cfg, &out->wl, err);
	if (rc)
		out->ops = NULL;
	return rc;
}

int ordo_scheduler_resolve(const char *spec, const struct ordo_scheduler_ops **ops, int64_t *params,
                           char *resolved, size_t cap, struct ordo_err *err)
{
	struct ordo_sched_spec s;
	int rc = ordo_sched_parse(spec, &s, err);
	if (rc)
		return rc;
	*ops = s.ops;
	memcpy(params, s.params, sizeof s.params);
	if (resolved)
		snprintf(resolved, cap, "%s", s.spec);
	return 0;
}

int ordo_scheduler_create(const char *spec, const char *overrides, const struct ordo_topology *topo,
                          uint64_t seed, struct ordo_scheduler *out, struct ordo_err *err)
{
	memset(out, 0, sizeof *out);
	struct ordo_sched_spec s;
	int rc = ordo_sched_parse(spec, &s, err);
	if (!rc)
		rc = ordo_sched_defaults(&s, overrides, err);
	return rc ? rc : ordo_sched_create(&s, topo, seed, out, err);
}

void ordo_scheduler_destroy(struct ordo_scheduler *w)
{
	if (w && w->ops && w->wl)
		w->ops->destroy(w->wl);
	if (w)
		memset(w, 0, sizeof *w);
}

void ordo_scheduler_print_help(FILE *f)
{
	fprintf(f, "schedulers (--wl NAME:key=value,...):\n");
	for (int i = 0; i < ordo_scheduler_count(); i++) {
		const struct ordo_scheduler_ops *o = table[i];
		fprintf(f, "  %-8s %s\n", o->name, o->summary);
		for (int k = 0; k < o->nparams; k++) {
			const struct ordo_param *p = &o->params[k];
			if (p->choices) {
				char list[128] = "";
				for (int c = 0; p->choices[c]; c++)
					snprintf(list + strlen(list), sizeof list - strlen(list),
					         "%s%s", c ? "|" : "", p->choices[c]);
				fprintf(f, "      %-12s default %-6s one of %s  %s\n", p->name,
				        p->choices[p->def], list, p->help);
			} else {
				fprintf(f, "      %-12s default %-6lld range %lld..%lld  %s\n",
				        p->name, (long long)p->def, (long long)p->lo,
				        (long long)p->hi, p->help);
			}
		}
		char names[256] = "";
		for (int k = 0; k < ORDO_SCHED_STATS; k++)
			if (o->stat_names[k])
				snprintf(names + strlen(names), sizeof names - strlen(names),
				         " wl_%s", o->stat_names[k]);
		if (names[0]) /* the records' columns of its counters */
			fprintf(f, "      counters    %s\n", names);
	}
}

unsigned ordo_scheduler_grain(const struct ordo_scheduler *w)
{
	const unsigned g = w->ops->grain ? w->ops->grain(w->params) : 0;
	return g > 64 ? 64 : g;
}

/* registry.c - the scheduler table built from ORDO_WL_LIST, and spec parsing. */
#include <string.h>

#include "ordo_wl.h"
#include "registry.h"

#define DECLARE(id) extern const struct ordo_wl_ops ordo_wl_##id;
ORDO_WL_LIST(DECLARE)
#undef DECLARE

static const struct ordo_wl_ops *const table[] = {
#define ENTRY(id) &ordo_wl_##id,
    ORDO_WL_LIST(ENTRY)
#undef ENTRY
};

int ordo_wl_count(void)
{
	return (int)(sizeof table / sizeof table[0]);
}

const struct ordo_wl_ops *ordo_wl_at(int i)
{
	return i >= 0 && i < ordo_wl_count() ? table[i] : NULL;
}

const struct ordo_wl_ops *ordo_wl_find(const char *name)
{
	for (int i = 0; i < ordo_wl_count(); i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

static int names(char *buf, size_t cap)
{
	size_t used = 0;
	for (int i = 0; i < ordo_wl_count() && used < cap; i++)
		used +=
		    (size_t)snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", table[i]->name);
	return 0;
}

static int resolve(const char *spec, const char *overrides, const struct ordo_wl_ops **ops_out,
                   int64_t *params, char *resolved, size_t cap, struct ordo_err *err)
{
	struct ordo_spec s, ov;
	int rc = ordo_spec_parse(spec, &s, err);
	if (rc)
		return rc;
	const struct ordo_wl_ops *ops = ordo_wl_find(s.name);
	if (!ops) {
		char list[512];
		names(list, sizeof list);
		return ordo_err_set(err, ORDO_EINVAL, "unknown scheduler '%s'; accepted: %s",
		                    s.name, list);
	}
	if (overrides && *overrides) {
		char tmp[300];
		snprintf(tmp, sizeof tmp, "x:%s", overrides);
		rc = ordo_spec_parse(tmp, &ov, err);
		if (rc)
			return rc;
		for (int k = 0; k < ov.nkv; k++) {
			bool known = false, given = false;
			for (int i = 0; i < ops->nparams; i++)
				known |= !strcmp(ops->params[i].name, ov.key[k]);
			for (int j = 0; j < s.nkv; j++)
				given |= !strcmp(s.key[j], ov.key[k]);
			if (known && !given && s.nkv < ORDO_MAX_PARAMS) {
				memcpy(s.key[s.nkv], ov.key[k], sizeof s.key[0]);
				memcpy(s.val[s.nkv], ov.val[k], sizeof s.val[0]);
				s.nkv++;
			}
		}
	}
	char what[96];
	snprintf(what, sizeof what, "scheduler %s", ops->name);
	rc = ordo_params_resolve(what, ops->params, ops->nparams, &s, params, err);
	if (rc)
		return rc;
	if (resolved)
		ordo_params_format(resolved, cap, ops->name, ops->params, ops->nparams, params);
	*ops_out = ops;
	return 0;
}

int ordo_worklist_resolve(const char *spec, const struct ordo_wl_ops **ops, int64_t *params,
                          char *resolved, size_t cap, struct ordo_err *err)
{
	return resolve(spec, NULL, ops, params, resolved, cap, err);
}

int ordo_worklist_create(const char *spec, const char *overrides, const struct ordo_topology *topo,
                         uint64_t seed, struct ordo_worklist *out, struct ordo_err *err)
{
	memset(out, 0, sizeof *out);
	int rc = resolve(spec, overrides, &out->ops, out->params, out->spec, sizeof out->spec, err);
	if (rc)
		return rc;
	struct ordo_wl_config cfg = {.topo = topo, .params = out->params, .seed = seed};
	rc = out->ops->create(&cfg, &out->wl, err);
	if (rc)
		out->ops = NULL;
	return rc;
}

void ordo_worklist_destroy(struct ordo_worklist *w)
{
	if (w && w->ops && w->wl)
		w->ops->destroy(w->wl);
	if (w)
		memset(w, 0, sizeof *w);
}

void ordo_wl_print_help(FILE *f)
{
	fprintf(f, "schedulers (--wl NAME:key=value,...):\n");
	for (int i = 0; i < ordo_wl_count(); i++) {
		const struct ordo_wl_ops *o = table[i];
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
	}
}

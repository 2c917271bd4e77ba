"""prune.py: silk_occ.prune, a tuning space's configurations judged on each
target before anything is compiled, in the shape of `silk-occ prune
--format json` (schema silk-occ/prune/1): per target, the feasible
configurations by occupancy (more first, then the space's order) and the
dropped ones, each with its reason.  Every verdict is the engine's: the
checks of calc (through _engine.batch, which names the check that refused a
configuration) and then its answer (no CTA resident, a cluster that cannot
be); the limits are the compiled-in tables', never constants here.

The space is silk-occ prune's:
    {"parameters": {"BLOCK_M": [64, 128], "STAGES": [2, 3]},
     "threads": "WARPS*32", "smem": "(BLOCK_M+BLOCK_N)*32*2*STAGES",
     "dyn_smem": 0, "regs": 128, "cluster": 2}
with a number or a formula (formula.py) for each of calc's keys.
"""
import itertools

from . import _engine
from .formula import value_of

# The keys of calc a space may give (a number or a formula), beside
# "parameters"; AMD targets take vgprs, agprs, sgprs and lds.
SPACE_KEYS = ("threads", "regs", "smem", "dyn_smem", "cluster", "barriers", "smem_optin",
              "carveout", "vgprs", "agprs", "sgprs", "lds", "waves_per_eu")
# The keys the CLI's "formulas" object names.
FORMULA_KEYS = ("threads", "regs", "smem", "dyn_smem", "cluster")
REASONS = ("empty_block", "block_too_large", "regs_over_max", "static_smem_over_limit",
           "smem_over_optin", "cluster_not_resident", "no_cta_resident")
# The keys of calc's answer that a verdict and a record read.
VERDICT_KEYS = frozenset(("arch", "compute_capability", "family", "vendor", "active_blocks_per_sm",
                      "active_warps_per_sm", "waves_per_simd", "occupancy", "limited_by",
                      "cluster", "unit"))


def read_space(space):
    """(names, lists of values, {key: number or Formula}), or ValueError."""
    if not isinstance(space, dict):
        raise ValueError("prune: a space is a dict with \"parameters\"")
    params = space.get("parameters")
    if not isinstance(params, dict) or not params:
        raise ValueError("prune: \"parameters\": a dict of names to lists of values")
    for name, values in params.items():
        if not isinstance(values, (list, tuple)) or not values:
            raise ValueError("prune: parameter '%s': a non-empty list of values" % name)
    names = list(params)
    keys = {}
    for key, spec in space.items():
        if key == "parameters":
            continue
        if key not in SPACE_KEYS:
            raise ValueError("prune: unknown key '%s'; a space takes parameters and %s"
                             % (key, ", ".join(SPACE_KEYS)))
        keys[key] = value_of(spec, names, "prune: \"%s\"" % key)
    return names, [list(params[n]) for n in names], keys


def configurations(names, values, keys):
    """Each point of the space: (its parameter values, calc's configuration)."""
    for point in itertools.product(*values):
        p = dict(zip(names, point))
        config = {}
        for key, spec in keys.items():
            try:
                config[key] = spec(p) if callable(spec) else spec
            except ValueError as e:
                raise ValueError("%s at %s" % (e, ", ".join("%s=%s" % kv for kv in p.items()))) from None
        yield p, config


def _cluster_size(cluster):
    if cluster is None:
        return 1
    if isinstance(cluster, int):
        return cluster
    n = 1
    for c in cluster:
        n *= c
    return n


def verdict(answer):
    """(reason, why) for one configuration's answer of _engine.batch with
    errors=True; reason None when it is feasible."""
    if "error" in answer:
        if answer["reason"] is None:
            raise ValueError("prune: %s" % answer["error"])
        return answer["reason"], answer["error"]
    cluster = answer.get("cluster")
    if cluster and cluster["size"] > 1:
        if not cluster["valid"]:
            return "cluster_not_resident", ("%s: a cluster of %d CTAs is above the %d a cluster "
                                            "may hold" % (answer["arch"], cluster["size"], cluster["limit"]))
        if answer["active_blocks_per_sm"] == 0 or cluster["resident_clusters"] == 0:
            return "cluster_not_resident", ("%s: no cluster of %d CTAs is resident"
                                            % (answer["arch"], cluster["size"]))
    if answer["active_blocks_per_sm"] == 0:
        group = "workgroup" if answer["vendor"] == "amd" else "CTA"
        return "no_cta_resident", "%s: no %s is resident on a%s %s" % (
            answer["arch"], group, "n" if answer["unit"] == "SM" else "", answer["unit"])
    return None, None


def _record(p, config, answer):
    r = {"params": dict(p), "threads": config.get("threads"), "regs": config.get("regs", config.get("vgprs")),
         "static_smem": config.get("smem", config.get("lds", 0)), "dynamic_smem": config.get("dyn_smem", 0),
         "cluster": _cluster_size(config.get("cluster")) if _cluster_size(config.get("cluster")) > 1 else None}
    return r


def _targets(arch, gpu):
    if (arch is None) == (gpu is None):
        raise ValueError("prune: give arch or gpu (a name, a list, or \"a,b\")")
    names = arch if arch is not None else gpu
    if isinstance(names, str):
        names = [n for n in names.split(",") if n]
    if not names:
        raise ValueError("prune: no target named")
    return "gpu" if gpu is not None else "arch", list(names)


def _judge(kind, name, points):
    configs = [dict(c, **{kind: name}) for _, c in points]
    answers = _engine.batch(configs, keys=VERDICT_KEYS, errors=True)
    feasible, dropped = [], []
    for i, ((p, config), answer) in enumerate(zip(points, answers)):
        reason, why = verdict(answer)
        r = _record(p, config, answer)
        if reason:
            r["reason"], r["why"] = reason, why
            dropped.append(r)
            continue
        r["active_blocks_per_sm"] = answer["active_blocks_per_sm"]
        if answer["vendor"] == "amd":
            r["waves_per_simd"] = answer["waves_per_simd"]
        else:
            r["active_warps_per_sm"] = answer["active_warps_per_sm"]
        r["occupancy"] = answer["occupancy"]
        r["limited_by"] = answer["limited_by"]
        feasible.append((i, r))
    # More occupancy first, then the space's order (a stable sort keeps it).
    feasible.sort(key=lambda ir: -ir[1]["occupancy"])
    return [r for _, r in feasible], dropped


def prune(space, arch=None, gpu=None):
    """The space judged on each target, as `silk-occ prune --format json`."""
    names, values, keys = read_space(space)
    points = list(configurations(names, values, keys))
    kind, targets = _targets(arch, gpu)
    out = {"schema": "silk-occ/prune/1",
           "tool": None,
           "parameters": names,
           "formulas": {k: keys[k].text if hasattr(keys.get(k), "text") else None for k in FORMULA_KEYS},
           "configurations": len(points), "targets": []}
    for name in targets:
        head = _engine.target({kind: name})
        out["tool"] = head["tool"]
        feasible, dropped = _judge(kind, name, points)
        out["targets"].append({"arch": head["arch"], "compute_capability": head["compute_capability"],
                               "family": head["family"], "n_feasible": len(feasible),
                               "n_dropped": len(dropped), "feasible": feasible, "dropped": dropped})
    return out

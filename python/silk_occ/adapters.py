"""adapters.py: the pruner in the two shapes tuners call it in.

Kernel Tuner takes `restrictions=f`, f(params) -> bool for a dict of the
parameter values; Triton takes `prune_configs_by={"early_config_prune": f}`
and calls f(configs, named_args, **kwargs) for the configs it would
benchmark, each with .kwargs, .num_warps, .num_stages and .maxnreg (None:
no cap), keeping what f returns.  Both adapters judge each configuration
with prune.verdict, the engine's verdict, so a script, `silk_occ.prune` and
`silk-occ prune` drop the same configurations for the same reasons.

Sizes are numbers, formulas of the parameters (formula.py), or callables.
Registers are not known before compiling: they default to 0 (Triton: the
config's maxnreg when it has one), which drops only a configuration that
cannot run whatever the compiler allocates, never one that could.
"""
from . import _engine
from .formula import value_of
from .prune import VERDICT_KEYS, verdict

def _target(arch, gpu):
    if (arch is None) == (gpu is None):
        raise ValueError("give arch or gpu")
    return {"arch": arch} if arch is not None else {"gpu": gpu}


def _sizer(spec, what):
    """spec as a function of a dict of parameter values."""
    if callable(spec):
        return spec
    names = None
    if isinstance(spec, str):
        value = None

        def formula(params):
            nonlocal value, names
            if value is None or names != set(params):
                names = set(params)
                value = value_of(spec, names, what)
            return value(params)
        return formula
    v = value_of(spec, (), what)
    return lambda params: v


def _judge(target, config):
    answer = _engine.batch([dict(config, **target)], keys=VERDICT_KEYS, errors=True)[0]
    return verdict(answer)


def kernel_tuner_restriction(arch=None, gpu=None, threads=None, regs=0, smem=0, dyn_smem=0,
                             cluster=None, on_drop=None):
    """A Kernel Tuner restriction: f(params) -> True when the configuration
    can run on the target.  threads defaults to Kernel Tuner's block size,
    block_size_x * block_size_y * block_size_z (1 for those absent);
    on_drop(params, reason, why) hears of each dropped one."""
    target = _target(arch, gpu)
    amd = _engine.target(target)["vendor"] == "amd"
    if threads is None:
        def threads(p):
            return p.get("block_size_x", 1) * p.get("block_size_y", 1) * p.get("block_size_z", 1)
    sizes = {"threads": _sizer(threads, "threads"), "regs": _sizer(regs, "regs"),
             "smem": _sizer(smem, "smem"), "dyn_smem": _sizer(dyn_smem, "dyn_smem")}
    if amd:  # LDS is all a workgroup has; VGPRs its registers
        sizes = {"threads": sizes["threads"], "vgprs": sizes["regs"],
                 "lds": lambda p: sizes["smem"](p) + sizes["dyn_smem"](p)}
    if cluster is not None:
        sizes["cluster"] = _sizer(cluster, "cluster")

    def restriction(params):
        config = {k: f(params) for k, f in sizes.items()}
        reason, why = _judge(target, config)
        if reason and on_drop:
            on_drop(params, reason, why)
        return reason is None
    return restriction


def triton_early_config_prune(arch=None, gpu=None, smem=None, regs=None, on_drop=None):
    """A Triton early_config_prune: keeps the configs that can run on the
    target.  smem(config) -> the bytes of shared memory the config uses (the
    user's formula: Triton's is dynamic shared memory); regs: a number or
    regs(config), default the config's maxnreg or 0.  Threads are
    num_warps times the target's warp size.  Raises ValueError, with each
    reason, when no config can run: Triton cannot tune an empty list."""
    if smem is None:
        raise ValueError("triton_early_config_prune: smem=lambda config: bytes is required")
    target = _target(arch, gpu)
    head = _engine.target(target)  # the warp (wave) size from the tables
    warp, amd = head["warp_size"], head["vendor"] == "amd"

    def registers(cfg):
        if regs is not None:
            return regs(cfg) if callable(regs) else regs
        return getattr(cfg, "maxnreg", None) or 0

    def prune(configs, named_args=None, **kwargs):
        kept, reasons = [], []
        for cfg in configs:
            threads = cfg.num_warps * warp
            if amd:
                config = {"threads": threads, "vgprs": registers(cfg), "lds": smem(cfg)}
            else:
                config = {"threads": threads, "regs": registers(cfg), "dyn_smem": smem(cfg)}
            reason, why = _judge(target, config)
            if reason is None:
                kept.append(cfg)
                continue
            reasons.append("%s: %s" % (reason, why))
            if on_drop:
                on_drop(cfg, reason, why)
        if configs and not kept:
            raise ValueError("triton_early_config_prune: no config can run: " + "; ".join(reasons[:4]))
        return kept
    return prune

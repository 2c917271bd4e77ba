"""silk_occ: exact GPU occupancy from silk-occ's engine, for scripts and tuners.

    occupancy(arch="sm_90", threads=256, regs=64, smem=12288)  -> dict
    batch([config, ...], keys=None, errors="raise")           -> [dict, ...]
    target(gpu="h100")                                         -> calc's target keys
    targets()                                                  -> {"architectures", "products"}
    prune(space, arch="sm_80,sm_90")                           -> silk-occ prune's JSON
    kernel_tuner_restriction(...), triton_early_config_prune(...)

A configuration holds `silk-occ calc`'s options as keys (arch or gpu,
threads, regs, smem, dyn_smem, barriers, smem_optin, carveout, work, sms,
cluster; AMD: vgprs, agprs, sgprs, lds, waves_per_eu), and its answer has
the keys and values of `silk-occ calc --format json` (schema
silk-occ/calc/2).  Every figure comes from the C engine (the _engine
extension, built from the silk-occ sources); errors are ValueError in
calc's words, naming calc's option.  See python/README.md.
"""
from . import _engine
from .adapters import kernel_tuner_restriction, triton_early_config_prune
from .prune import REASONS, prune

__all__ = ["occupancy", "batch", "target", "targets", "prune", "REASONS", "FIGURES",
           "kernel_tuner_restriction", "triton_early_config_prune"]

# The keys a tuner reads: with keys=FIGURES, batch computes no search
# (next_step, best_block_size) and makes three objects per configuration.
FIGURES = frozenset(("active_blocks_per_sm", "occupancy", "limited_by"))


def occupancy(arch=None, gpu=None, **config):
    """One configuration's answer: calc --format json's dict.  Keys given
    None are left out, as options not given."""
    config["arch"], config["gpu"] = arch, gpu
    return _engine.calc({k: v for k, v in config.items() if v is not None})


def batch(configs, keys=None, errors="raise"):
    """The answers of many configurations in one C loop.  keys: the
    top-level keys to return (FIGURES for speed), None for all.  errors:
    "raise" (ValueError naming configs[i]) or "return" (that entry is
    {"index", "error", "reason"} and the others are still answered)."""
    if errors not in ("raise", "return"):
        raise ValueError("batch: errors is 'raise' or 'return', not %r" % (errors,))
    return _engine.batch(configs, keys=keys, errors=errors == "return")


def target(arch=None, gpu=None):
    """calc's target keys (schema .. sm_count: vendor, arch, compute_capability,
    family, warp_size, unit, gpu, gpu_asked, sm_count) for a name, found as
    calc finds it."""
    return _engine.target({k: v for k, v in (("arch", arch), ("gpu", gpu)) if v is not None})


def targets():
    """The compiled-in tables: {"architectures": [...], "products": [...]},
    NVIDIA rows then AMD, each with its names, compute capability or
    family, and (products) SM or CU count."""
    return _engine.tables()

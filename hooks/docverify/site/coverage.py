"""What one build knows of where this version of the site ran: the data behind every sentence
the site says about the CPU and the GPU (output/coverage_text.py words them).

Computed once per build from what the build holds: the runner it ran on and what it observed,
the gpu job's report when it was given one (report/gpu_report.py: the blocks' gpu verdicts), the
recordings of each block and the sources' freshness. Nothing here is assumed: a GPU observation
exists only where a run on a GPU, for this very code, says so.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from docverify.core.policies import AS_WRITTEN
from docverify.sources.freshness import FRESH, Freshness
from docverify.verifying.outcome import Provenance, SeenIn, Verification

GPU = "gpu"


@dataclass(frozen=True)
class GpuObserved:
    """This version's blocks observed on a GPU: by this build, or by the gpu job's report."""

    blocks: int
    seen: Provenance  # where and when (the first block's, for a report: the report's)

    @property
    def in_build(self) -> bool:
        """This build ran on the gpu runner (else: the gpu job's report observed them)."""
        return self.seen.source != SeenIn.REPORT


@dataclass(frozen=True)
class Coverage:
    runner: str  # the runner this build ran on
    torch: str  # its torch ("?" when nothing ran)
    blocks: int  # executed blocks of the site
    observed: int  # blocks this build observed on its runner (run now, or from the local cache)
    cached: int  # of those, given by the local cache (observed before: same code, same versions)
    reported: bool  # the observations come from the verification jobs' reports (ran nothing)
    gpu: GpuObserved | None  # None: no block of this version was observed on a GPU
    own_gpu: int  # blocks with their own GPU recording
    need_gpu: tuple[str, ...]  # blocks whose device marks ask for a GPU recording they lack
    sources_fresh: int
    sources_total: int
    # blocks that leave their devices to their code on a GPU (device_policy as-written)
    as_written: int = 0

    @property
    def cpu_observed(self) -> int:
        return self.observed if self.runner == "cpu" else 0

    @property
    def gpu_observed(self) -> int:
        return self.gpu.blocks if self.gpu else 0

    def data(self) -> dict[str, object]:
        """Plain values, for verificacion.json."""
        gpu = self.gpu
        return {
            "runner": self.runner,
            "torch": self.torch,
            "blocks": self.blocks,
            "cpu_observed": self.cpu_observed,
            "from_local_cache": self.cached,
            "from_reports": self.reported,
            "gpu_observed": self.gpu_observed,
            "gpu": None
            if gpu is None
            else {
                "device": gpu.seen.device,
                "torch": gpu.seen.torch,
                "date": gpu.seen.date,
                "in_build": gpu.in_build,
                "run_url": gpu.seen.run_url,
            },
            "own_gpu_recordings": self.own_gpu,
            "need_gpu_recording": list(self.need_gpu),
            "sources_fresh": self.sources_fresh,
            "sources_total": self.sources_total,
        }


def of(verification: Verification, fresh: Freshness, today: dt.date) -> Coverage:
    """The coverage of a build whose verification is `verification`, on `today`."""
    outcomes = list(verification.outcomes.values())
    observed = sum(1 for o in outcomes if o.result is not None)
    gpu = None
    if verification.runner == GPU:
        if observed:
            env = verification.env
            seen = Provenance(
                GPU, env.get("torch", "?"), env.get("device", "?"), today.isoformat(), SeenIn.BUILD
            )
            gpu = GpuObserved(observed, seen)
    elif reported := [v for o in outcomes if (v := o.reported(GPU)) and v.provenance]:
        assert reported[0].provenance is not None
        gpu = GpuObserved(len(reported), reported[0].provenance)
    need = tuple(
        o.block.key
        for o in outcomes
        if o.block.runs_on(GPU) and GPU not in o.recordings and o.verdicts[GPU].reference.needs_own
    )
    return Coverage(
        runner=verification.runner,
        torch=verification.env.get("torch", "?"),
        blocks=len(outcomes),
        observed=observed,
        cached=sum(1 for o in outcomes if (o.result or {}).get("cached")),
        reported=any(_from_report(o.verdict.provenance) for o in outcomes),
        gpu=gpu,
        own_gpu=sum(1 for o in outcomes if GPU in o.recordings),
        need_gpu=need,
        sources_fresh=sum(1 for s in fresh.statuses if s.status in FRESH),
        sources_total=len(fresh.statuses),
        as_written=sum(
            1 for o in outcomes if o.block.runs_on(GPU) and o.block.device_policy == AS_WRITTEN
        ),
    )


def _from_report(seen: Provenance | None) -> bool:
    return seen is not None and seen.source == SeenIn.REPORT

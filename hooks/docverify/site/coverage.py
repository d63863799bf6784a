"""What one build knows of where this version of the site ran: the data behind every sentence
the site says about the CPU and the GPU (output/coverage.py words them).

Computed once per build from what the build holds: the runner it ran on and what it observed,
the gpu job's report when it was given one (report/gpu_report.py), the recordings of each block
and the sources' freshness. Nothing here is assumed: a GPU observation exists only where a run on
a GPU, for this very code, says so.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from docverify.sources.freshness import FRESH, Freshness
from docverify.verifying import baselines
from docverify.verifying.outcome import Verification

GPU = "gpu"


@dataclass(frozen=True)
class GpuObservation:
    """This version's blocks observed on a GPU: by this build, or by the gpu job's report."""

    blocks: int
    device: str  # the GPU's name, as the run reported it
    torch: str
    date: str  # ISO date of the run
    in_build: bool  # this build ran on the gpu runner (else: the gpu job's report)
    run_url: str = ""  # the CI run that observed them, when the report says


@dataclass(frozen=True)
class Coverage:
    runner: str  # the runner this build ran on
    torch: str  # its torch ("?" when nothing ran)
    blocks: int  # executed blocks of the site
    observed: int  # blocks this build observed on its runner (run now, or from the local cache)
    cached: int  # of those, given by the local cache (observed before: same code, same versions)
    reported: bool  # the observations come from the verification jobs' reports (ran nothing)
    gpu: GpuObservation | None  # None: no block of this version was observed on a GPU
    own_gpu: int  # blocks with their own GPU recording
    need_gpu: tuple[str, ...]  # blocks whose device marks ask for a GPU recording they lack
    sources_fresh: int
    sources_total: int

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
                "device": gpu.device,
                "torch": gpu.torch,
                "date": gpu.date,
                "in_build": gpu.in_build,
                "run_url": gpu.run_url,
            },
            "own_gpu_recordings": self.own_gpu,
            "need_gpu_recording": list(self.need_gpu),
            "sources_fresh": self.sources_fresh,
            "sources_total": self.sources_total,
        }


def of(verification: Verification, fresh: Freshness, today: dt.date) -> Coverage:
    """The coverage of a build whose verification is `report`, on `today`."""
    outcomes = list(verification.outcomes.values())
    observed = sum(1 for o in outcomes if o.result is not None)
    gpu = None
    if verification.runner == GPU:
        if observed:
            env = verification.env
            gpu = GpuObservation(
                observed, env.get("device", "?"), env.get("torch", "?"), today.isoformat(), True
            )
    elif peers := [o.peers[GPU] for o in outcomes if GPU in o.peers]:
        first = peers[0]
        gpu = GpuObservation(
            len(peers), first.device, first.torch, first.date, False, first.run_url
        )
    need = tuple(
        o.block.key
        for o in outcomes
        if o.block.runs_on(GPU)
        and GPU not in o.recordings
        and baselines.needs_own(o.block, GPU, o.recordings)
    )
    return Coverage(
        runner=verification.runner,
        torch=verification.env.get("torch", "?"),
        blocks=len(outcomes),
        observed=observed,
        cached=sum(1 for o in outcomes if (o.result or {}).get("cached")),
        reported=any(o.origin is not None for o in outcomes),
        gpu=gpu,
        own_gpu=sum(1 for o in outcomes if GPU in o.recordings),
        need_gpu=need,
        sources_fresh=sum(1 for s in fresh.statuses if s.status in FRESH),
        sources_total=len(fresh.statuses),
    )

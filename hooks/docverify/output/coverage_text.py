"""Every sentence the site says about where this version ran, worded from the build's coverage.

The page that holds MARKER (docs/como-se-verifica.md: its paragraph, its legend and its
description), `site_description`, the verification page's opening counts and the notebooks'
header say it in these words, all computed from one `site.coverage.Coverage`: a build with no
GPU observation says that this version was verified on CPU only; one given the gpu job's report
says what that report observed.
No sentence here is true of every build: each one is chosen by the data.
"""

from __future__ import annotations

import re

from docverify.core.dates import spanish_date_of
from docverify.core.markdown import md_escape
from docverify.core.policies import AS_WRITTEN, DEFAULT_CUDA, DEVICE_LABEL
from docverify.core.text import counted
from docverify.site.coverage import Coverage, GpuObserved

# The marker a page writes, on a line of its own, where its paragraph about this version's
# runners goes (como-se-verifica.md); the same text inside a line (quoted in code, say) is not a
# marker.
MARKER = "<!-- docverify:verificacion -->"
MARKER_LINE = re.compile(rf"^[ \t]*{re.escape(MARKER)}[ \t]*$", re.MULTILINE)
# The labels a reader sees on the panels (output/runner_view.py), explained here.
NOT_RUN = "pendiente"
NEEDS_OWN = "con salida propia"
RECORDED = "sin comprobar en esta versión"
WHY_OWN = (
    "dependen de números aleatorios, que CUDA genera con un generador distinto del de la CPU, "
    "preguntan por el acelerador o muestran un dispositivo"
)


def _blocks(count: int) -> str:
    return f"{count} bloque{'' if count == 1 else 's'}"


def _origin(gpu: GpuObserved) -> str:
    if gpu.in_build:
        return "en esta construcción"
    run_url = gpu.seen.run_url
    return f"en la ejecución de CI {run_url}" if run_url else "según un informe local"


def gpu_where(gpu: GpuObserved) -> str:
    """Where and when the GPU observation was made, in words (plain text)."""
    seen = gpu.seen
    return f"{seen.device}, torch {seen.torch}, el {spanish_date_of(seen.date)}, {_origin(gpu)}"


def verdict(cov: Coverage) -> str:
    """The first sentence: on which runners this version was verified."""
    if cov.runner == "gpu":
        return "Esta versión del sitio se verificó en una GPU."
    if cov.gpu is not None:
        return "Esta versión del sitio se verificó en CPU y en GPU."
    return "Esta versión del sitio se verificó solo en CPU."


def description(cov: Coverage) -> str:
    """One sentence for a page's description and for `site_description` (plain text)."""
    gpu = cov.gpu
    if cov.runner == "gpu" and gpu is not None:
        return f"{verdict(cov)} {_seen(gpu.blocks)} en una GPU ({gpu.seen.device}) y 0 en CPU."
    if gpu is not None:
        return (
            f"{verdict(cov)} {_seen(cov.cpu_observed)} en CPU y "
            f"{gpu.blocks} en una GPU ({gpu.seen.device})."
        )
    return f"{verdict(cov)} {_seen(cov.cpu_observed)} en CPU y 0 en una GPU."


def _seen(count: int) -> str:
    """«1 bloque observado», «3 bloques observados»."""
    return counted(count, "bloque observado", "bloques observados")


def _ran(cov: Coverage, count: int) -> str:
    """«Al construirla, N bloques se ejecutaron»: when this build observed them."""
    ran = counted(count, "bloque se ejecutó", "bloques se ejecutaron")
    if cov.reported:
        return f"En la verificación de este commit, {ran}"
    checked = counted(count, "bloque se verificó", "bloques se verificaron")
    return f"Al construirla, {checked if cov.cached else ran}"


def _cache(cov: Coverage) -> str:
    """Outside CI, the blocks whose output the local cache gave instead of running them."""
    if not cov.cached or cov.reported:
        return ""
    again = counted(cov.cached, "bloque no se volvió", "bloques no se volvieron")
    return (
        f" De ellos, {again} a ejecutar: la caché local de docverify guardaba lo que ya se "
        "había observado con este mismo código y estas versiones, y cada panel dice cuándo."
    )


def _observed(cov: Coverage) -> str:
    """What ran, in Markdown (after the verdict)."""
    gpu = cov.gpu
    runner = "(un *runner* es la máquina que ejecuta los bloques)"
    if cov.runner == "gpu" and gpu is not None:
        return (
            f"{_ran(cov, gpu.blocks)} en un runner de GPU {runner} "
            f"({md_escape(gpu.seen.device)}, torch {gpu.seen.torch}) y cada salida se comparó "
            "con la grabada; ninguno se ejecutó en CPU en esta construcción (0 bloques "
            "observados en CPU): las salidas de CPU que verás son las grabadas, con su fecha."
            + _cache(cov)
        )
    if gpu is not None:
        return (
            f"{_ran(cov, cov.cpu_observed)} en un runner de CPU "
            f"{runner} y {_blocks(gpu.blocks)} en una GPU ({md_escape(gpu_where(gpu))}); cada "
            "salida se comparó con la grabada para su runner." + _cache(cov)
        )
    return (
        f"{_ran(cov, cov.cpu_observed)} en un runner de CPU "
        f"{runner} y cada salida se comparó con la grabada; ningún bloque se ha ejecutado en "
        "una GPU para esta versión (0 bloques observados en una GPU)." + _cache(cov)
    )


def _subject(count: int) -> str:
    """«Ningún bloque», «1 bloque», «3 bloques»: the subject of a sentence."""
    return "Ningún bloque" if count == 0 else _blocks(count)


def _recordings(cov: Coverage) -> str:
    own, need = cov.own_gpu, len(cov.need_gpu)
    return (
        f"{_subject(own)} {'tienen' if own > 1 else 'tiene'} su propia grabación de GPU; "
        f"{_subject(need).lower()} {'la necesitan' if need > 1 else 'la necesita'} y aún no "
        f"{'la tienen' if need > 1 else 'la tiene'}, porque su salida en una GPU puede no ser "
        f"la de CPU ({WHY_OWN})."
    )


def _labels(cov: Coverage) -> str:
    """What the panels' labels mean, for the labels this build can show."""
    parts = [
        "Bajo cada salida, una línea dice en qué runner se ejecutó, con qué versión de torch y "
        "cuándo. Solo lleva "
        "✓ lo que una ejecución ha observado para esta versión: «CPU ✓» o «GPU ✓» dicen que la "
        "salida observada coincide con la grabada."
    ]
    if cov.runner == "gpu":
        parts.append(f"«CPU: {RECORDED}» muestra la salida grabada en CPU, con su fecha.")
    elif cov.gpu is None:
        parts.append(
            f"«GPU: {NOT_RUN}» quiere decir que ninguna GPU ha ejecutado ese bloque para esta "
            "versión"
            + (
                f"; si añade «{NEEDS_OWN}», en una GPU puede imprimir otra cosa y esa salida "
                "tendrá que grabarse aparte."
                if cov.need_gpu
                else "."
            )
        )
        if cov.own_gpu:
            parts.append(
                f"«GPU: {RECORDED}» muestra la salida que se grabó antes en una GPU, con su "
                "fecha, sin que ninguna ejecución la haya comprobado ahora."
            )
    return " ".join(parts)


def home(cov: Coverage | None) -> str:
    """The home page's paragraphs about this version's runners (Markdown)."""
    if cov is None:
        return ""
    return "\n\n".join([f"**{verdict(cov)}** {_observed(cov)}", _recordings(cov), _labels(cov)])


def verification_opening(cov: Coverage | None) -> str:
    """The verification page's counts, before its tables (Markdown)."""
    if cov is None:
        return ""
    gpu = cov.gpu
    from_gpu = (
        f"{gpu.blocks} ({md_escape(gpu_where(gpu))})"
        if gpu is not None
        else "0 (esta versión se verificó solo en CPU)"
    )
    need = len(cov.need_gpu)
    rows = [
        f"- Runner de esta construcción: {cov.runner.upper()} (torch {cov.torch}).",
        f"- Bloques observados en CPU: {cov.cpu_observed} de {cov.blocks}.",
        f"- Bloques observados en una GPU: {from_gpu}.",
        f"- Bloques con su propia grabación de GPU: {cov.own_gpu}.",
        f"- Bloques que necesitan su propia grabación de GPU y aún no la tienen: {need}"
        + (" («GPU compara con» dice por qué)." if need else "."),
        f"- Fuentes al día: {cov.sources_fresh} de {cov.sources_total}.",
    ]
    return f"**{verdict(cov)}**\n\n" + "\n".join(rows)


def notebook(cov: Coverage | None) -> str:
    """The notebook header's sentence about this version's runners (Markdown)."""
    if cov is None:
        return ""
    gpu = cov.gpu
    if gpu is None:
        return f"{verdict(cov)} Ninguna GPU ha ejecutado estos bloques para esta versión."
    return f"{verdict(cov)} GPU: {md_escape(gpu_where(gpu))}."


def legend_devices(cov: Coverage | None) -> str:
    """The legend's sentence about a block that leaves its devices to its code on a GPU, whose
    label a reader sees folded under its line (output/runner_view.py) or beside its GPU output;
    only where some block does (plain text, escaped by the caller)."""
    if cov is None or not cov.as_written:
        return ""
    return (
        f"«{DEVICE_LABEL[AS_WRITTEN]}»: en una GPU, el bloque se ejecuta tal como está escrito y "
        "su código decide en qué dispositivo van sus tensores; los demás se ejecutan allí con "
        f"cuda como dispositivo por defecto («{DEVICE_LABEL[DEFAULT_CUDA]}»)."
    )


def legend_gpu(cov: Coverage | None) -> str:
    """The legend's sentences about the GPU's labels (plain text, escaped by the caller)."""
    if cov is None:
        return ""
    if cov.runner == "gpu":
        return f"«CPU: {RECORDED}»: la salida grabada en CPU, que esta versión no ha ejecutado."
    if cov.gpu is not None:
        return (
            f"«GPU ✓»: la salida observada en una GPU ({gpu_where(cov.gpu)}) coincide con la "
            "grabada."
        )
    parts = [
        f"«GPU: {NOT_RUN}»: ninguna GPU ha ejecutado el bloque para esta versión; cuando un "
        "runner GPU lo ejecute, su salida tendrá que coincidir con la de CPU, salvo el argumento "
        "device='cuda:N'."
    ]
    if cov.need_gpu:
        parts.append(
            f"«{NEEDS_OWN}»: en una GPU puede imprimir otra cosa (números aleatorios, el "
            "acelerador o un dispositivo) y esa salida se grabará aparte."
        )
    if cov.own_gpu:
        parts.append(
            f"«GPU: {RECORDED}»: una salida grabada antes en una GPU, que nadie ha comprobado "
            "ahora."
        )
    return " ".join(parts)

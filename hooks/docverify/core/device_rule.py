"""The device rule in words: how the gpu runner compares an output with a cpu recording.

verifying/baselines.py applies the rule; its name and what it does are said here, once, for
every message and page that names it.
"""

from __future__ import annotations

NAME = "regla de dispositivo"
TEXT = (
    "en GPU se quita el argumento device='cuda:N' de los repr de tensores y parámetros "
    "antes de comparar; esta regla no quita nada más"
)

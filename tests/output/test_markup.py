"""Markdown and raw HTML every part of a page uses (output/markup.py): each written out in full."""

from __future__ import annotations

from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.output import markup


def test_a_fence_is_longer_than_any_run_of_backticks_inside() -> None:
    assert markup.fence("1") == "```dv-output\n1\n```"
    assert markup.fence("a ``` b", "text") == "````text\na ``` b\n````"
    assert markup.fence("`````\n```") == "``````dv-output\n`````\n```\n``````"
    assert markup.fence("``") == "```dv-output\n``\n```"  # two backticks open no fence


def test_a_diff_marks_removed_added_and_hunk_lines_and_escapes_them() -> None:
    diff = "--- grabada\n+++ obtenida\n@@ -1 +1 @@\n-a<b\n+a&b\n contexto\n\n"
    assert markup.diff_html(diff) == (
        '<pre class="dv-diff"><code>--- grabada\n+++ obtenida\n'
        '<span class="dv-diff-hunk">@@ -1 +1 @@</span>\n'
        '<span class="dv-diff-del">-a&lt;b</span>\n'
        '<span class="dv-diff-add">+a&amp;b</span>\n'
        " contexto</code></pre>"
    )


def test_a_blank_line_inside_a_diff_is_a_zero_width_space() -> None:
    """A blank line would end the raw HTML block in Markdown."""
    assert markup.diff_html("a\n\nb\n") == '<pre class="dv-diff"><code>a\n&#8203;\nb</code></pre>'
    # only the final newlines go: a line's trailing spaces are part of the output
    assert markup.diff_html("+b  X\n\n") == (
        '<pre class="dv-diff"><code><span class="dv-diff-add">+b  X</span></code></pre>'
    )
    assert markup.diff_html("+b  \n") == (
        '<pre class="dv-diff"><code><span class="dv-diff-add">+b  </span></code></pre>'
    )


def test_an_output_is_escaped_program_output() -> None:
    assert markup.format_output("<x> & 'y'", "dv-output", "dv-output-text") == (
        '<pre class="dv-output-text"><samp>&lt;x&gt; &amp; &#x27;y&#x27;</samp></pre>'
    )
    assert markup.format_raw("<p>tal cual</p>", "dv-html", "dv-html") == "<p>tal cual</p>"


def test_raw_html_is_a_fence_of_its_own_without_surrounding_newlines() -> None:
    assert markup.raw("\n<figure>\n</figure>\n\n") == "```dv-html\n<figure>\n</figure>\n```"
    # only newlines go: the spaces that indent a line are the HTML's own
    assert markup.raw("  <p>x</p> \n") == "```dv-html\n  <p>x</p> \n```"
    assert markup.raw("X<br>X\n") == "```dv-html\nX<br>X\n```"


def test_custom_fences_keep_others_and_replace_python_and_ours() -> None:
    mermaid = {"name": "mermaid", "class": "mermaid", "format": str}
    configured = [
        {"name": "python", "class": "x"},
        mermaid,
        {"name": "py", "class": "x"},
        {"name": "dv-output", "class": "old"},
        {"name": "dv-html", "class": "old"},
        {"class": "sin nombre"},
    ]
    assert markup.custom_fences(configured) == [
        mermaid,
        {"class": "sin nombre"},
        {"name": "dv-output", "class": "dv-output-text", "format": markup.format_output},
        {"name": "dv-html", "class": "dv-html", "format": markup.format_raw},
    ]


def test_a_problems_box_shows_each_finding_with_its_place_detail_and_fix() -> None:
    found = [
        Finding(
            Kind.DIVERGENCE,
            "la salida <cambió>",
            "docs/a.md",
            7,
            "docverify record --page a.md",
            detail="-1\n+2\n",
        ),
        Finding(Kind.DIVERGENCE, "otra", "docs/b.md", 0, "editar & volver"),
    ]
    assert markup.problems_box("dv-problema-b", "Problemas <aquí>", found) == (
        "```dv-html\n"
        '<div class="admonition failure dv-problem" id="dv-problema-b">\n'
        '<p class="admonition-title">Problemas &lt;aquí&gt;</p>\n'
        "<p><strong>[divergencia]</strong> docs/a.md:7: la salida &lt;cambió&gt;</p>\n"
        '<pre class="dv-diff"><code><span class="dv-diff-del">-1</span>\n'
        '<span class="dv-diff-add">+2</span></code></pre>\n'
        "<p>Cómo arreglarlo: <code>docverify record --page a.md</code></p>\n"
        "<p><strong>[divergencia]</strong> docs/b.md: otra</p>\n"
        "<p>Cómo arreglarlo: <code>editar &amp; volver</code></p>\n"
        "</div>\n"
        "```\n"
    )

"""roofline.show — the course's exact values as a reader sees them: numbers (`fmt`, the only place that
rounds), Korean words and particles (`ko`), closed forms (`formulas`), Markdown tables (`tables`), the papers'
quoted claims (`claims`), the figure style and registry (`style`, `palette`, `figures`), the explorers' engine and
HTML (`engine`, `explorer`), the exercises' judge and renderer (`exercises`), one module per page of the book (`pages`:
its values, tables, sentences, explorer, exercises and figures), and `glue`/`glue_page`, which hand a value (or a page
module's dict of values) to the page (myst-nb's record format, without myst-nb, so it works in Colab too)."""

# the functions, as chapters call them: glue("N", fmt.integer(N)), glue_page(page.setup(w3)), and in the first code
# cell short_parameter_errors() (a bad parameter shown as its one Korean line in a notebook)
from roofline.show.glue import glue, glue_page, short_parameter_errors  # noqa: E402

__all__ = ["glue", "glue_page", "short_parameter_errors"]

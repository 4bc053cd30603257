"""roofline.show — the course's exact values as a reader sees them: numbers (`fmt`, the only place that
rounds), Korean words and particles (`ko`), closed forms (`formulas`), Markdown tables (`tables`), the papers'
quoted claims (`claims`), the figure style and figures (`style`, `figures`), and `glue`, which hands a value to
the page (myst-nb's record format, without myst-nb, so it works in Colab too)."""

from roofline.show.glue import glue  # noqa: E402  (the function, as chapters call it: glue("N", fmt.integer(N)))

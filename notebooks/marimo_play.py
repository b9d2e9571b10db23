"""Spiderette in marimo: ``marimo run notebooks/marimo_play.py`` (an app) or ``marimo edit`` (a notebook).

The same widget as in Jupyter, wrapped with ``mo.ui.anywidget``; the cell below the table is reactive: it
runs again after every move made on the table.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo

    from spiderette import Widget

    return Widget, mo


@app.cell
def _(mo):
    mo.md("""
    # Spiderette

    One-deck Spider on seven columns: build down in any suit, move only same-suit runs as a group,
    finish four King-to-Ace runs. Drag a card or click it; click the stock to deal.
    Keys: **D** deal, **U** undo, **R** redo, **H** hint, **N** new game.
    """)
    return


@app.cell
def _(Widget, mo):
    widget = Widget(seed=7)  # deal number 7: the same cards everywhere
    table = mo.ui.anywidget(widget)
    table  # noqa: B018 - marimo shows the last expression of a cell
    return (widget,)


@app.cell
def _(mo, widget):
    # marimo state that follows the table, so that the cell below runs again after every change
    get_view, set_view = mo.state(widget.view)
    widget.observe(lambda change: set_view(change["new"]), names="view")
    return (get_view,)


@app.cell
def _(get_view, mo, widget):
    _view = get_view()
    _g = widget.game  # the live Game (scripting works too: widget.play("bd ea", delay=0.3))
    _moves = f"{_g.move_count} move{'' if _g.move_count == 1 else 's'}"
    mo.md(f"**{_g.status}** · score {_g.score} · {_moves} · {_g.deals_left} deals left"
          f" · runs {_g.runs_completed}/{_g.runs_total}")
    return


if __name__ == "__main__":
    app.run()

"""The optional extras (``teach``: pandas, matplotlib, tqdm, Dask; ``rl``: numpy, gymnasium): import a part of
one, or say what to install; a notebook cell's guard (:func:`needs`); and the matplotlib figures a notebook
shows. For the tables and plots of an analysis and of a study.

>>> need("to_pandas()", "no_such_module_here")
Traceback (most recent call last):
...
ImportError: to_pandas() needs no_such_module_here, which is not installed: pip install "spiderette[teach]"
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING

from ..engine.platform import install_advice

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: What to install for the optional parts (tables as DataFrames, plots, progress bars, Dask).
TEACH = 'pip install "spiderette[teach]"'

#: The extra of the package that installs each optional package (a name not here: ``pip install`` it).
EXTRAS = {"pandas": "teach", "matplotlib": "teach", "tqdm": "teach", "distributed": "teach", "dask": "teach",
          "numpy": "rl", "gymnasium": "rl"}


def need(what: str, module: str, instead: str = ""):
    """Import ``module`` for ``what``, or raise an ``ImportError`` that says what to install (and, given
    ``instead``, what gives the same without it)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(f"{what} needs {module.split('.')[0]}, which is not installed: "
                          + install_advice(TEACH) + (f" ({instead})" if instead else "")) from None


def needs(*packages: str, instead: str = "") -> bool:
    """Whether every one of ``packages`` can be imported: the guard of a notebook cell that uses an optional
    package. When one is missing (a browser site without it, an install without the extra), it prints one line
    that names the missing ones, where they come from and ``instead`` (where the lesson shows the same without
    them), and returns ``False``: the cell does nothing more, and Run All goes on. Only a failed import counts
    as missing; any other error is raised.

    >>> if needs("no_such_module_here", instead="the table above has the figures"):
    ...     print("drawn")
    Skipped: this cell needs no_such_module_here (pip install no_such_module_here); the table above has the figures.
    >>> needs("json")
    True
    """
    missing = []
    for name in packages:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if not missing:
        return True
    extras = sorted({EXTRAS[n] for n in missing if n in EXTRAS})
    others = [n for n in missing if n not in EXTRAS]
    pip = " ".join(["pip install", *([f'"spiderette[{",".join(extras)}]"'] if extras else []), *others])
    print(f"Skipped: this cell needs {' and '.join(missing)} ({install_advice(pip)})"
          + (f"; {instead}" if instead else "") + ".")
    return False


@functools.cache
def _shown(figure_module):
    """A matplotlib ``Figure`` that a notebook shows as a picture when it is a cell's result, with no
    ``%matplotlib`` magic (its ``_repr_png_``): the figures here are made without pyplot."""

    class ShownFigure(figure_module.Figure):
        def _repr_png_(self) -> bytes:
            import io

            buf = io.BytesIO()
            self.savefig(buf, format="png", dpi=90)
            return buf.getvalue()

    return ShownFigure


def new_figure(**kwargs) -> Figure:
    """A matplotlib ``Figure`` (made without pyplot) that a notebook shows as a picture when it is a cell's
    result, in JupyterLab, Notebook 7 and marimo, with no ``%matplotlib`` magic.

    The keyword arguments are matplotlib's ``Figure``'s (``figsize=(8, 3)``, ``layout="constrained"``, …);
    draw on its axes (``fig.subplots()``) and end the cell with ``fig``. Without matplotlib, an
    ``ImportError`` that says what to install (the ``teach`` extra). The plots of studies and analyses are
    made with it.

    An example (run by the tests from the API reference, where matplotlib is installed)::

        from spiderette.players.extras import new_figure

        fig = new_figure(figsize=(6, 2.5), layout="constrained")
        ax = fig.subplots()
        ax.plot([0, 1, 3, 2], label="runs completed")
        ax.legend()
        fig                      # the last line of a cell: shown as a picture
    """
    return _shown(need("plot()", "matplotlib.figure"))(**kwargs)

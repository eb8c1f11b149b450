"""Order of the examples in the gallery: the executed ones, with figures, first."""

import os

from sphinx_gallery.sorting import FileNameSortKey


class ExecutedFirstSortKey(FileNameSortKey):
    """The ``plot_*.py`` examples (executed, so with figures) first, then the others.

    Each group is sorted by file name.
    """

    def __call__(self, filename):
        return ("0" if os.path.basename(filename).startswith("plot_") else "1") + str(filename)

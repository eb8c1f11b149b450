"""Test configuration shared by the whole suite."""

import pytest
from threadpoolctl import threadpool_limits


@pytest.fixture(autouse=True, scope="session")
def _single_threaded_blas():
    """One BLAS/OpenMP thread per process.

    The searches parallelise over joblib workers; multi-threaded BLAS on top of
    that oversubscribes a small, shared machine by orders of magnitude.
    """
    with threadpool_limits(limits=1):
        yield

"""The benchmarks of sksel and the builders of its shipped data (see README.md).

Run from the repository root: ``python -m benchmarks`` lists the scripts,
``python -m benchmarks NAME [ARGS...]`` runs one.
"""

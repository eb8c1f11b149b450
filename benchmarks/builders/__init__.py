"""The scripts that build the data sksel ships (``sksel/data/``) and the benchmarks read
(``benchmarks/data/``); see ``benchmarks/README.md``."""

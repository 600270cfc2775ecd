"""Stage 9: batches of games — simulate, local and Ray backends, sweeps, charts.
"""

"""Job facts per cluster: the model and parallelism of the job that runs there, set once with the
API, `bwdoctor jobs set` or the probe's config, and used by the cluster page and pre-flight."""

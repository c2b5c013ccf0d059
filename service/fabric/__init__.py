"""Fabric: planned pairwise bandwidth tests, which element of the network is at fault, and
lasting regressions over time (issue 16). Pure planning and inference live in topology.py,
planner.py, localise.py and regress.py; the database and HTTP sides in service.py and views.py."""

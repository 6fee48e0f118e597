"""Running the compendium: the runs a float needs, notebooks under papermill, reproduce, estimates, generation, checks and benchmarks."""

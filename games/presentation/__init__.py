"""What a viewer sees: view models built from the engine's HandView (viewmodels.py), the per-viewer
context, caches and frames of the live table (rendering.py), and the Jinja2 environment of its
regions, templates/jinja2/games/table/ (jinja.py)."""

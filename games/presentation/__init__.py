"""What a viewer sees of a table: the Jinja2 environment of the live table's regions (templates/jinja2/games/table/)."""

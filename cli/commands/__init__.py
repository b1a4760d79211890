"""One module per command or family of commands; ``cli.app`` mounts them."""

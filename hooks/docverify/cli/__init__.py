"""Command line: the `docverify` command and its subcommands."""

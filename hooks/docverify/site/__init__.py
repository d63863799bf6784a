"""Site: article anatomy, navigation, lint checks and the scaffolding of `docverify new`."""

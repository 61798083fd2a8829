"""Settings for the whole suite.

The console speaks the language of the environment (LANGUAGE, LC_ALL, LC_MESSAGES,
LANG). Tests that start `tongiaki-lan` read English words off its screen, so the suite
runs in English whatever the developer's or CI machine's locale; tests of other
languages ask for theirs explicitly (tests/i18n).
"""

import os

os.environ["LANGUAGE"] = "en"

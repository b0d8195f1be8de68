// support/version.h — the ucutlass version, printed by `--version` and stamped into emitted code.
#pragma once

#define UCUTLASS_VERSION "0.1.0"

// emit/sm90/evt.h — the `>>` chain as one CUTLASS 3.x SM90 Epilogue Visitor Tree (Sm90EVT nodes).
#pragma once

#include "emit/evt_builder.h"

namespace ucut::sm90 {

EvtTree build_evt(const KernelConfig& cfg);

}  // namespace ucut::sm90

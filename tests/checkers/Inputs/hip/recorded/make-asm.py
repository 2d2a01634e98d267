#!/usr/bin/env python3
"""Writes a recorded AMDGPU assembly for the hermetic HIP checker tests: the lines of real
clang 22 output (clang++-22 -x hip --cuda-device-only -S) that warplint's clang register
source reads (.amdgcn_target, the kernel symbols, '; Occupancy:', the metadata), with the
counts of each test case. Usage: make-asm.py TARGET OUT NAME:VGPRS:SGPRS:VSPILL:SSPILL:SCRATCH:LDS:FLAT:OCC[:AGPRS]... (AGPRS 0 when left out)"""
import sys

target, out = sys.argv[1], sys.argv[2]
kernels = [(k.split(':') + ['0'])[:10] for k in sys.argv[3:]]
wave = 32 if target.startswith('gfx1') else 64
lines = ['\t.amdgcn_target "amdgcn-amd-amdhsa--%s"' % target]
for k in kernels:
    lines += ['\t.type\t%s,@function' % k[0], '; Occupancy: %s' % k[8]]
lines += ['\t.amdgpu_metadata', '---', 'amdhsa.kernels:']
for name, vg, sg, vsp, ssp, scratch, lds, flat, occ, agprs in kernels:
    lines += ['  - .agpr_count:     %s' % agprs,
              '    .group_segment_fixed_size: %s' % lds,
              '    .max_flat_workgroup_size: %s' % flat,
              '    .name:           %s' % name,
              '    .private_segment_fixed_size: %s' % scratch,
              '    .sgpr_count:     %s' % sg,
              '    .sgpr_spill_count: %s' % ssp,
              '    .symbol:         %s.kd' % name,
              '    .vgpr_count:     %s' % vg,
              '    .vgpr_spill_count: %s' % vsp,
              '    .wavefront_size: %d' % wave]
lines += ['amdhsa.target:   amdgcn-amd-amdhsa--%s' % target, 'amdhsa.version:', '  - 1',
          '  - 2', '...', '', '\t.end_amdgpu_metadata', '']
open(out, 'w').write('\n'.join(lines))

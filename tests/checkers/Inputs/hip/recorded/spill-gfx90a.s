	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.type	_Z6pinnedPfPKfi,@function
; Occupancy: 8
	.type	_Z4widePfPKfi,@function
; Occupancy: 4
	.type	_Z6scalarPfi,@function
; Occupancy: 8
	.type	_Z5cleanPf,@function
; Occupancy: 8
	.type	_Z7indexedPfi,@function
; Occupancy: 7
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           _Z6pinnedPfPKfi
    .private_segment_fixed_size: 340
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z6pinnedPfPKfi.kd
    .vgpr_count:     64
    .vgpr_spill_count: 84
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 1024
    .name:           _Z4widePfPKfi
    .private_segment_fixed_size: 96
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         _Z4widePfPKfi.kd
    .vgpr_count:     128
    .vgpr_spill_count: 20
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           _Z6scalarPfi
    .private_segment_fixed_size: 0
    .sgpr_count:     102
    .sgpr_spill_count: 6
    .symbol:         _Z6scalarPfi.kd
    .vgpr_count:     24
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 1024
    .name:           _Z5cleanPf
    .private_segment_fixed_size: 0
    .sgpr_count:     10
    .sgpr_spill_count: 0
    .symbol:         _Z5cleanPf.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 1024
    .name:           _Z7indexedPfi
    .private_segment_fixed_size: 272
    .sgpr_count:     13
    .sgpr_spill_count: 0
    .symbol:         _Z7indexedPfi.kd
    .vgpr_count:     66
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata

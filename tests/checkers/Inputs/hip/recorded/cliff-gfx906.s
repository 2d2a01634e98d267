	.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
	.type	_Z4pastPf,@function
; Occupancy: 3
	.type	_Z5underPf,@function
; Occupancy: 6
	.type	_Z4sgprPf,@function
; Occupancy: 9
	.type	_Z3ldsPf,@function
; Occupancy: 3
	.type	_Z4finePf,@function
; Occupancy: 10
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           _Z4pastPf
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z4pastPf.kd
    .vgpr_count:     66
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           _Z5underPf
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z5underPf.kd
    .vgpr_count:     40
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           _Z4sgprPf
    .private_segment_fixed_size: 0
    .sgpr_count:     82
    .sgpr_spill_count: 0
    .symbol:         _Z4sgprPf.kd
    .vgpr_count:     20
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 16896
    .max_flat_workgroup_size: 256
    .name:           _Z3ldsPf
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z3ldsPf.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           _Z4finePf
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z4finePf.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx906
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata

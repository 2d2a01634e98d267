	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.type	_Z9lds_boundPf,@function
; Occupancy: 2
	.type	_Z8too_manyPf,@function
; Occupancy: 8
	.type	_Z4regsPf,@function
; Occupancy: 5
	.type	_Z9big_blockPf,@function
; Occupancy: 7
	.type	_Z3metPf,@function
; Occupancy: 8
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .group_segment_fixed_size: 32768
    .max_flat_workgroup_size: 256
    .name:           _Z9lds_boundPf
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z9lds_boundPf.kd
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           _Z8too_manyPf
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z8too_manyPf.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           _Z4regsPf
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z4regsPf.kd
    .vgpr_count:     96
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 640
    .name:           _Z9big_blockPf
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z9big_blockPf.kd
    .vgpr_count:     24
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           _Z3metPf
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z3metPf.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata

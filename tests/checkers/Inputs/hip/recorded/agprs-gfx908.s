	.amdgcn_target "amdgcn-amd-amdhsa--gfx908"
	.type	_Z3accPf,@function
; Occupancy: 4
	.type	_Z3vecPf,@function
; Occupancy: 3
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     64
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           _Z3accPf
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z3accPf.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     40
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           _Z3vecPf
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z3vecPf.kd
    .vgpr_count:     72
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx908
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata

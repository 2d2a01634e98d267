	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.type	_Z3uniPf,@function
; Occupancy: 3
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     64
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           _Z3uniPf
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         _Z3uniPf.kd
    .vgpr_count:     70
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata

/* warplint's fallback <omp.h>: the OpenMP runtime API that CUDA programs call from host
 * code, for a parse where the compiler has no OpenMP headers (clang-22 without
 * libomp-22-dev). It is searched after every other include directory (-idirafter), so an
 * installed omp.h always wins. Declarations only: warplint analyses, it never links. */
#ifndef WARPLINT_FALLBACK_OMP_H
#define WARPLINT_FALLBACK_OMP_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { void *_lk; } omp_lock_t;
typedef struct { void *_lk; } omp_nest_lock_t;
typedef enum omp_sched_t {
  omp_sched_static = 1,
  omp_sched_dynamic = 2,
  omp_sched_guided = 3,
  omp_sched_auto = 4
} omp_sched_t;

void omp_set_num_threads(int);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int);
int omp_get_dynamic(void);
void omp_set_nested(int);
int omp_get_nested(void);
int omp_get_level(void);
int omp_get_active_level(void);
int omp_get_thread_limit(void);
void omp_set_schedule(omp_sched_t, int);
void omp_get_schedule(omp_sched_t *, int *);
int omp_get_num_devices(void);
int omp_get_default_device(void);
void omp_set_default_device(int);
void omp_init_lock(omp_lock_t *);
void omp_destroy_lock(omp_lock_t *);
void omp_set_lock(omp_lock_t *);
void omp_unset_lock(omp_lock_t *);
int omp_test_lock(omp_lock_t *);
void omp_init_nest_lock(omp_nest_lock_t *);
void omp_destroy_nest_lock(omp_nest_lock_t *);
void omp_set_nest_lock(omp_nest_lock_t *);
void omp_unset_nest_lock(omp_nest_lock_t *);
int omp_test_nest_lock(omp_nest_lock_t *);
double omp_get_wtime(void);
double omp_get_wtick(void);

#ifdef __cplusplus
}
#endif

#endif /* WARPLINT_FALLBACK_OMP_H */

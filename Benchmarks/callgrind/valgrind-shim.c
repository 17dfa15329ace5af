// Two work-arounds for running a Swift benchmark under valgrind 3.19 (LD_PRELOAD it):
// - valgrind writes the sanitised mask back into sigsuspend's argument; libdispatch passes a const
//   mask in read-only memory, so valgrind faults. Pass a writable copy instead.
// - Foundation's Process closes every descriptor listed in /proc/self/fd in the child; that list
//   holds valgrind's own descriptors, above the limit valgrind reports, so glibc refuses them with
//   EBADF and the spawn fails. Skip those.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>
#include <sys/syscall.h>
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, 8);
}
int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *actions, int fd) {
    static int (*next)(posix_spawn_file_actions_t *, int);
    if (!next) next = (int (*)(posix_spawn_file_actions_t *, int))dlsym(RTLD_NEXT, "posix_spawn_file_actions_addclose");
    int result = next(actions, fd);
    return result == EBADF ? 0 : result;
}

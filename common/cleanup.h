/*
 * cleanup.h: what must not outlive the program when a signal ends it
 * early: temporary files and directories (removed) and child processes
 * (stopped).  Their owners remove and reap them on every ordinary path;
 * this list is for SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE, whose
 * handler stops the children (SIGTERM, then waits for them, so none
 * writes into a directory being removed), removes the paths newest first
 * (a directory's files before it), and dies of the same signal; and for
 * exit() called deep inside (out of memory: exit 3), after which an
 * atexit function does the same.
 *
 * Register a path before creating it, so that no moment exists when it is
 * on disk and unknown here; removing a path that was never made is
 * harmless.  The list is the programs' one piece of mutable global state
 * (the runtime's lock aside): a signal handler can reach nothing else.  A
 * signal that was ignored when the program started (nohup, a background
 * job of a shell) stays ignored.  Not thread-safe; the programs have one
 * thread.
 */
#ifndef SILK_CLEANUP_H
#define SILK_CLEANUP_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/* A file or an (empty by then) directory to remove if a signal comes;
 * the path is copied.  False when out of memory (nothing registered). */
bool cleanup_add_file(const char *path);
bool cleanup_add_dir(const char *path);

/* A directory that a child fills with files named by the child (nvcc's
 * TMPDIR): on a signal, the files in it, whatever their names, are removed
 * before it is (on Linux; elsewhere only the registered ones). */
bool cleanup_add_scratch_dir(const char *path);

/* Drops `path` from the list (its owner removed or kept it). */
void cleanup_forget(const char *path);

/* Drops every path under `dir/`, and `dir` itself. */
void cleanup_forget_tree(const char *dir);

/* A child to stop if a signal comes; forget it once reaped. */
bool cleanup_add_child(pid_t pid);
void cleanup_forget_child(pid_t pid);

/* Holds the signals above off (saving the old mask in *saved) across a
 * step that must not be cut in two, such as fork and registering the
 * child, or making a temporary file and registering it.  A child forked
 * while they are held calls cleanup_release before exec. */
void cleanup_hold(sigset_t *saved);
void cleanup_release(const sigset_t *saved);

#endif

/*
 * cleanup.c: the list of cleanup.h and its signal handler.
 *
 * The handler may call only async-signal-safe functions (kill, waitpid,
 * unlink, rmdir, getpid, signal, raise), so everything it needs is in
 * place before a signal can come: paths are copied when registered, and
 * the list is changed only with the signals held, so the handler never
 * sees it half-updated.  It is installed on the first registration, for
 * the signals not ignored at that moment, together with an atexit
 * function that does the same for an exit() the owners did not see
 * coming.
 */
#ifdef __linux__
#define _DEFAULT_SOURCE /* syscall(SYS_getdents64): the handler's listing */
#endif
#include "cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

/* What an entry is: a file, a directory, or a directory that a child
 * fills with names of its own (nvcc's TMPDIR), emptied before removal. */
typedef enum { ENTRY_FILE, ENTRY_DIR, ENTRY_SCRATCH } EntryKind;

typedef struct Entry {
    char *path;
    EntryKind kind;
} Entry;

static struct {
    Entry *entries;
    size_t n_entries, entry_capacity;
    pid_t *children;
    size_t n_children, child_capacity;
    pid_t owner; /* the process that installed the handler; 0: not yet */
} list;

static const int SIGNALS[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
enum { N_SIGNALS = sizeof SIGNALS / sizeof SIGNALS[0] };

static void signal_set(sigset_t *set)
{
    sigemptyset(set);
    for (int i = 0; i < N_SIGNALS; i++)
        sigaddset(set, SIGNALS[i]);
}

void cleanup_hold(sigset_t *saved)
{
    sigset_t set;
    signal_set(&set);
    sigprocmask(SIG_BLOCK, &set, saved);
}

void cleanup_release(const sigset_t *saved)
{
    sigprocmask(SIG_SETMASK, saved, NULL);
}

/* ---- the handler --------------------------------------------------------- */

static void stop_children(void)
{
    for (size_t i = 0; i < list.n_children; i++)
        kill(list.children[i], SIGTERM);
    for (size_t i = 0; i < list.n_children; i++)
        while (waitpid(list.children[i], NULL, 0) < 0 && errno == EINTR)
            continue;
}

/* Removes the files of a scratch directory, whose names nobody told us.
 * opendir is not async-signal-safe (it allocates); open, the getdents64
 * system call into a buffer on the stack, unlinkat and close are.  Only
 * files and links go (unlinkat without AT_REMOVEDIR), so a link to a
 * directory is removed, never followed.  Elsewhere than Linux the files
 * stay, as before. */
static void empty_scratch(const char *dir)
{
#ifdef __linux__
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    _Alignas(8) char buf[4096];
    long got;
    while ((got = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
        for (long at = 0; at < got;) {
            /* struct linux_dirent64: d_ino, d_off, d_reclen, d_type, d_name */
            const char *ent = buf + at;
            unsigned short reclen;
            memcpy(&reclen, ent + 16, sizeof reclen);
            const char *name = ent + 19;
            if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
                (void)unlinkat(fd, name, 0);
            at += reclen;
        }
    close(fd);
#else
    (void)dir;
#endif
}

/* Newest first: a directory's files before it. */
static void remove_entries(void)
{
    for (size_t i = list.n_entries; i-- > 0;) {
        const Entry *e = &list.entries[i];
        if (e->kind == ENTRY_SCRATCH)
            empty_scratch(e->path);
        (void)(e->kind == ENTRY_FILE ? unlink(e->path) : rmdir(e->path));
    }
}

static void on_signal(int sig)
{
    /* A child between fork and exec has the handler too, and must not
     * touch its parent's files. */
    if (getpid() == list.owner) {
        int saved_errno = errno;
        stop_children();
        remove_entries();
        errno = saved_errno;
    }
    /* Die of the same signal, so the caller sees what happened (130 for
     * SIGINT in a shell); it is delivered when the handler returns. */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* exit() from deep inside (the arena's "out of memory", exit 3) skips
 * the owners' ordinary removal: what is still listed then goes as after a
 * signal.  On the ordinary paths the owners have emptied the list, and a
 * forked child leaves by _exit or exec, which run no atexit function. */
static void at_exit(void)
{
    if (getpid() != list.owner)
        return;
    stop_children();
    remove_entries();
}

static void install_handler(void)
{
    if (list.owner == getpid())
        return;
    if (list.owner == 0)
        atexit(at_exit); /* once: a forked child's list.owner is its parent's */
    list.owner = getpid();
    struct sigaction action = {.sa_handler = on_signal};
    signal_set(&action.sa_mask); /* one handler at a time */
    for (int i = 0; i < N_SIGNALS; i++) {
        struct sigaction old;
        if (sigaction(SIGNALS[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(SIGNALS[i], &action, NULL);
    }
}

/* ---- the list ------------------------------------------------------------ */

/* `items` with room for one more item of `size` bytes (moved, perhaps);
 * NULL when out of memory, `items` then left as it was. */
static void *reserve(void *items, size_t n, size_t *capacity, size_t size)
{
    if (n < *capacity)
        return items;
    size_t grown = *capacity ? 2 * *capacity : 16;
    void *bigger = realloc(items, grown * size);
    if (bigger)
        *capacity = grown;
    return bigger;
}

static bool add_entry(const char *path, EntryKind kind)
{
    char *copy = strdup(path);
    if (!copy)
        return false;
    sigset_t saved;
    cleanup_hold(&saved);
    install_handler();
    Entry *entries = reserve(list.entries, list.n_entries, &list.entry_capacity,
                             sizeof *entries);
    bool ok = entries != NULL;
    if (ok) {
        entries[list.n_entries++] = (Entry){copy, kind};
        list.entries = entries;
    }
    cleanup_release(&saved);
    if (!ok)
        free(copy);
    return ok;
}

bool cleanup_add_file(const char *path)
{
    return add_entry(path, ENTRY_FILE);
}

bool cleanup_add_dir(const char *path)
{
    return add_entry(path, ENTRY_DIR);
}

bool cleanup_add_scratch_dir(const char *path)
{
    return add_entry(path, ENTRY_SCRATCH);
}

/* Whether `path` is `dir` or lies under it. */
static bool is_under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* Drops the entries `path` matches: itself, or (tree) anything under it. */
static void forget_entries(const char *path, bool tree)
{
    sigset_t saved;
    cleanup_hold(&saved);
    size_t kept = 0;
    for (size_t i = 0; i < list.n_entries; i++) {
        const char *p = list.entries[i].path;
        if (tree ? is_under(p, path) : strcmp(p, path) == 0)
            free(list.entries[i].path);
        else
            list.entries[kept++] = list.entries[i];
    }
    list.n_entries = kept;
    cleanup_release(&saved);
}

void cleanup_forget(const char *path)
{
    forget_entries(path, false);
}

void cleanup_forget_tree(const char *dir)
{
    forget_entries(dir, true);
}

bool cleanup_add_child(pid_t pid)
{
    sigset_t saved;
    cleanup_hold(&saved);
    install_handler();
    pid_t *children = reserve(list.children, list.n_children, &list.child_capacity,
                              sizeof *children);
    bool ok = children != NULL;
    if (ok) {
        children[list.n_children++] = pid;
        list.children = children;
    }
    cleanup_release(&saved);
    return ok;
}

void cleanup_forget_child(pid_t pid)
{
    sigset_t saved;
    cleanup_hold(&saved);
    for (size_t i = 0; i < list.n_children; i++)
        if (list.children[i] == pid) {
            list.children[i] = list.children[--list.n_children];
            break;
        }
    cleanup_release(&saved);
}

/*
 * tempdir.c: the private directories of tempdir.h.
 */
#include "tempdir.h"

#include "cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *tempdir_make(const char *prefix, const char **base)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (base)
        *base = tmp;
    size_t size = strlen(tmp) + strlen(prefix) + sizeof "/-XXXXXX";
    char *dir = malloc(size);
    if (!dir)
        return NULL;
    snprintf(dir, size, "%s/%s-XXXXXX", tmp, prefix);
    /* Made and registered with the signals held: no moment when it exists
     * unknown to the handler. */
    sigset_t saved;
    cleanup_hold(&saved);
    bool made = mkdtemp(dir) != NULL;
    int err = errno;
    bool known = made && cleanup_add_dir(dir);
    cleanup_release(&saved);
    if (made && !known)
        rmdir(dir);
    if (!known) {
        free(dir);
        errno = made ? ENOMEM : err;
        return NULL;
    }
    return dir;
}

/* Everything in `dir`, then `dir`: what the run put there is all there
 * is, files and (for a .cu input) a directory of files. */
static void remove_tree(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    struct dirent *ent;
    while (d && (ent = readdir(d))) {
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
            continue;
        size_t size = strlen(dir) + strlen(ent->d_name) + 2;
        char *path = malloc(size);
        if (!path)
            break;
        snprintf(path, size, "%s/%s", dir, ent->d_name);
        if (unlink(path) != 0 && depth > 0)
            remove_tree(path, depth - 1);
        free(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

void tempdir_remove(char *dir, int depth)
{
    if (!dir)
        return;
    remove_tree(dir, depth);
    cleanup_forget_tree(dir);
    free(dir);
}

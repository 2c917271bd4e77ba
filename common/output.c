/*
 * output.c: the outputs of output.h.
 *
 * The temporary is made with mkstemp beside the target (a rename within
 * one directory is atomic, and cannot cross file systems), given the mode
 * the target has, or else the mode fopen would give a new file, and
 * registered with cleanup.h while the signals are held, so no signal
 * finds it on disk and unknown.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "output.h"

#include "cleanup.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void output_init(void)
{
    signal(SIGXFSZ, SIG_IGN);
}

static bool fail(Output *o, OutputFailure failure, const char *what, int err)
{
    o->failure = failure;
    snprintf(o->error, sizeof o->error, "%s: %s: %s", o->target, what, strerror(err));
    return false;
}

/* ---- opening ------------------------------------------------------------- */

/* The input that is the same regular file as `st`, or NULL. */
static const char *same_input(const struct stat *st, const char *const inputs[], int n)
{
    for (int i = 0; i < n; i++) {
        struct stat in;
        bool known = strcmp(inputs[i], "-") == 0 ? fstat(STDIN_FILENO, &in) == 0
                                                 : stat(inputs[i], &in) == 0;
        if (known && S_ISREG(in.st_mode) && in.st_dev == st->st_dev && in.st_ino == st->st_ino)
            return inputs[i];
    }
    return NULL;
}

/* The file to replace: the target, or where its link leads when that is a
 * regular file; NULL when the target is to be written in place. */
static char *replaced_path(const char *target, const struct stat *lst, bool exists)
{
    if (!exists || S_ISREG(lst->st_mode))
        return strdup(target);
    struct stat st;
    if (!S_ISLNK(lst->st_mode) || stat(target, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL; /* a device, a FIFO, a link to one, or a dangling link */
    return realpath(target, NULL);
}

/* "DIR/.NAME.XXXXXX" for DIR/NAME, the name cut short to stay a legal one. */
static char *temp_template(const char *final)
{
    const char *slash = strrchr(final, '/');
    size_t dir_len = slash ? (size_t)(slash - final) + 1 : 0;
    const char *name = final + dir_len;
    int name_len = (int)strnlen(name, 200);
    size_t size = dir_len + (size_t)name_len + sizeof "/..XXXXXX";
    char *path = malloc(size);
    if (path)
        snprintf(path, size, "%.*s.%.*s.XXXXXX", (int)dir_len, final, name_len, name);
    return path;
}

/* The mode a new file gets from fopen, or the existing target's. */
static mode_t file_mode(const char *final)
{
    struct stat st;
    if (stat(final, &st) == 0)
        return st.st_mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* Makes and registers the temporary beside o->final and opens it; on
 * failure frees o->final. */
static bool open_temp(Output *o)
{
    o->temp = temp_template(o->final);
    if (!o->temp) {
        free(o->final);
        o->final = NULL;
        return fail(o, OUTPUT_CANNOT_CREATE, "cannot create", ENOMEM);
    }
    sigset_t saved;
    cleanup_hold(&saved);
    int fd = mkstemp(o->temp);
    int err = errno;
    if (fd >= 0 && !cleanup_add_file(o->temp)) {
        err = ENOMEM;
        close(fd);
        unlink(o->temp);
        fd = -1;
    }
    cleanup_release(&saved);
    if (fd >= 0 && (fchmod(fd, file_mode(o->final)) != 0 || !(o->file = fdopen(fd, "w")))) {
        err = errno;
        close(fd);
        unlink(o->temp);
        cleanup_forget(o->temp);
        fd = -1;
    }
    if (fd < 0) {
        free(o->temp);
        free(o->final);
        o->temp = o->final = NULL;
        return fail(o, OUTPUT_CANNOT_CREATE, "cannot create", err);
    }
    return true;
}

bool output_open(Output *o, const char *target, const char *const inputs[], int n_inputs)
{
    *o = (Output){.target = target};
    if (strcmp(target, "-") == 0) {
        o->file = stdout;
        return true;
    }
    struct stat lst, st;
    bool exists = lstat(target, &lst) == 0;
    if (exists && stat(target, &st) == 0) {
        const char *input = S_ISREG(st.st_mode) ? same_input(&st, inputs, n_inputs) : NULL;
        if (input) {
            o->failure = OUTPUT_IS_INPUT;
            snprintf(o->error, sizeof o->error, "%s: the output would overwrite the input %s",
                     target, input);
            return false;
        }
        if (S_ISDIR(st.st_mode))
            return fail(o, OUTPUT_CANNOT_CREATE, "cannot create", EISDIR);
    }
    o->final = replaced_path(target, &lst, exists);
    if (o->final)
        return open_temp(o);
    if (!(o->file = fopen(target, "w")))
        return fail(o, OUTPUT_CANNOT_CREATE, "cannot create", errno);
    return true;
}

/* ---- closing ------------------------------------------------------------- */

/* Whether `err` is one a failed write gives.  When stdio's buffer was
 * flushed, and failed, long before the end, only errno may still say why,
 * and only such a value is taken for the reason. */
static bool is_write_errno(int err)
{
    return err == ENOSPC || err == EFBIG || err == EIO || err == EPIPE || err == EDQUOT ||
           err == EBADF;
}

void output_flush(Output *o)
{
    if (o->file == stdout)
        return; /* output_finish_stdout flushes it, and says why it failed */
    int earlier = ferror(o->file) ? errno : 0;
    if (fflush(o->file) != 0 && !o->write_error)
        o->write_error = errno;
    if (ferror(o->file) && !o->write_error)
        o->write_error = is_write_errno(earlier) ? earlier : EIO;
}

/* Flushes and closes o->file; the errno of the first failure, or 0. */
static int close_checked(Output *o)
{
    output_flush(o);
    int err = o->write_error;
    if (fclose(o->file) != 0 && !err)
        err = errno;
    o->file = NULL;
    return err;
}

/* Forgets and frees the temporary's name, once it is renamed or removed. */
static void drop_temp(Output *o)
{
    cleanup_forget(o->temp);
    free(o->temp);
    free(o->final);
    o->temp = o->final = NULL;
}

bool output_commit(Output *o)
{
    if (o->file == stdout) {
        fflush(stdout);
        o->file = NULL;
        return true;
    }
    int err = close_checked(o);
    if (!err && o->temp && rename(o->temp, o->final) != 0)
        err = errno;
    if (err && o->temp)
        unlink(o->temp);
    if (o->temp)
        drop_temp(o);
    return err ? fail(o, OUTPUT_CANNOT_WRITE, "cannot write", err) : true;
}

void output_abort(Output *o)
{
    if (o->file && o->file != stdout)
        fclose(o->file);
    o->file = NULL;
    if (o->temp) {
        unlink(o->temp);
        drop_temp(o);
    }
}

int output_finish_stdout(const char *program, int status, int failure_status)
{
    bool failed = ferror(stdout);
    int err = failed && is_write_errno(errno) ? errno : 0;
    if (fflush(stdout) != 0) {
        failed = true;
        err = errno;
    }
    /* A standard output closed by the caller (>&-) with nothing written
     * to it is no error: EBADF from fclose alone. */
    if (fclose(stdout) != 0 && !failed && errno != EBADF) {
        failed = true;
        err = errno;
    }
    if (!failed)
        return status;
    if (err)
        fprintf(stderr, "%s: write error: %s\n", program, strerror(err));
    else
        fprintf(stderr, "%s: write error\n", program);
    return failure_status;
}

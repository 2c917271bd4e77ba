/*
 * tempdir.h: a private directory for one run's intermediate files (the
 * PTX that ptxas reads, the cubins it writes, nvcc's output): made with
 * mkdtemp under $TMPDIR (else /tmp), and gone when the run ends, on every
 * path: tempdir_remove on the ordinary ones, cleanup.h's signal handler
 * when SIGINT, SIGTERM, SIGHUP, SIGQUIT or SIGPIPE ends it first.  Every
 * file put in the directory, by the program or by a child it runs, is
 * named to cleanup_add_file before it is made, so that the handler, which
 * cannot list a directory, knows it.
 */
#ifndef SILK_TEMPDIR_H
#define SILK_TEMPDIR_H

/* "$TMPDIR/PREFIX-XXXXXX", made (mode 0700) and registered with
 * cleanup.h; malloc'd.  NULL with errno set when it cannot be made; `base`
 * (when not NULL) then says where it was tried, for the message. */
char *tempdir_make(const char *prefix, const char **base);

/* Removes the directory and everything in it, `depth` levels of
 * subdirectories deep, registered or not, and forgets it; frees `dir`.
 * NULL is nothing. */
void tempdir_remove(char *dir, int depth);

#endif

/*
 * exit_status.h: the exit statuses of both programs, silk-occ and silkc.
 * One set, so that a script or a build treats the two alike: 0 all went
 * well, 1 the input has findings (a failed check, errors in the source),
 * 2 the command line or an input is unusable, 3 something the command
 * needs from its environment is missing (a tool, memory, room for the
 * output).  Each program's man page (EXIT STATUS) says which cases of its
 * own fall under each number; the numbers are a promise to scripts and
 * never change.  A tool's failure maps to them by one rule, in the
 * compiler library (build.h, build_failure_status): refused input is 1
 * for the compiler's own code and 2 for the user's file; a tool missing
 * or broken is 3.
 */
#ifndef SILK_EXIT_STATUS_H
#define SILK_EXIT_STATUS_H

enum {
    EXIT_OK = 0,          /* success (warnings may have been printed) */
    EXIT_FINDINGS = 1,    /* a check failed, or the source has errors */
    EXIT_USAGE = 2,       /* bad command line or unusable input */
    EXIT_ENVIRONMENT = 3, /* a tool, memory or room for output is missing */
};

/* No exit status: an option parser's "--help was asked and printed",
 * which ends the run with EXIT_OK. */
enum { EXIT_HELP = -1 };

#endif

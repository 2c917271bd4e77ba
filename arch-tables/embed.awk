# embed.awk: turns a CSV file into a C string, so the tables are part of the
# binary.  Usage: awk -v name=IDENT -f embed.awk FILE
BEGIN { printf "/* Generated from arch-tables by embed.awk: do not edit. */\nconst char %s[] =\n", name }
{
    gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\r/, "")
    printf "    \"%s\\n\"\n", $0
}
END { print "    \"\";" }

/* dhry.h — Dhrystone 2.1, written from Weicker's published description (SIGPLAN Notices 23(8),
 * 1988: "Dhrystone Benchmark: Rationale for Version 2 and Measurement Rules").  Names follow the
 * specification so the code can be checked against it line by line.  Like the original, the
 * program is split in two translation units (dhry_1.c: the driver and Proc_1..Proc_5; dhry_2.c:
 * Proc_6..Proc_8 and Func_1..Func_3) so that, without LTO, no procedure can be merged into the
 * measurement loop.  Within dhry_1.c the compiler may inline Proc_2..Proc_5 as gcc does in
 * byte-unixbench's build of the same files (dhry_1.c says why).
 *
 * The benchmark state is global, as the specification requires (global access is part of the
 * measured mix).  That is safe because the harness runs each copy in its own process.
 */
#ifndef ISOBENCH_DHRY_H
#define ISOBENCH_DHRY_H

#include <stddef.h>
#include <stdint.h>

#define REG register	/* the "register variables" variant: REG as in the published source */

typedef enum { Ident_1, Ident_2, Ident_3, Ident_4, Ident_5 } Enumeration;
typedef int One_Thirty;
typedef int One_Fifty;
typedef char Capital_Letter;
typedef int Boolean;
typedef char Str_30[31];
typedef int Arr_1_Dim[50];
typedef int Arr_2_Dim[50][50];

typedef struct record {
	struct record *Ptr_Comp;
	Enumeration Discr;
	union {
		struct {
			Enumeration Enum_Comp;
			int Int_Comp;
			char Str_Comp[31];
		} var_1;
		struct {
			Enumeration E_Comp_2;
			char Str_2_Comp[31];
		} var_2;
		struct {
			char Ch_1_Comp;
			char Ch_2_Comp;
		} var_3;
	} variant;
} Rec_Type, *Rec_Pointer;

extern Rec_Pointer Ptr_Glob, Next_Ptr_Glob;
extern int Int_Glob;
extern Boolean Bool_Glob;
extern char Ch_1_Glob, Ch_2_Glob;
extern Arr_1_Dim Arr_1_Glob;
extern Arr_2_Dim Arr_2_Glob;

/* dhry_2.c */
void Proc_6(Enumeration Enum_Val_Par, Enumeration *Enum_Ref_Par);
void Proc_7(One_Fifty Int_1_Par_Val, One_Fifty Int_2_Par_Val, One_Fifty *Int_Par_Ref);
void Proc_8(Arr_1_Dim Arr_1_Par_Ref, Arr_2_Dim Arr_2_Par_Ref, int Int_1_Par_Val, int Int_2_Par_Val);
Enumeration Func_1(Capital_Letter Ch_1_Par_Val, Capital_Letter Ch_2_Par_Val);
Boolean Func_2(Str_30 Str_1_Par_Ref, Str_30 Str_2_Par_Ref);
Boolean Func_3(Enumeration Enum_Par_Val);

/* The main program's locals after the last run, for the self-check. */
struct dhry_locals {
	int Int_1_Loc, Int_2_Loc, Int_3_Loc;
	Enumeration Enum_Loc;
	Str_30 Str_1_Loc, Str_2_Loc;
};

/* Reset the global state as the specification's main program does before its loop. */
void dhry_init(void);
/* Run iterations first .. first+n-1 of the measurement loop; optionally return the locals. */
void dhry_loop(int first, uint64_t n, struct dhry_locals *out);
/* dhry_init(), n runs, then compare every value the specification says to print against its
 * expected value.  Returns 0, or -1 with the first mismatch described in why. */
int dhry_selfcheck(uint64_t n, char *why, size_t len);
/* Run iters more loops after the last (after dhry_init(): from the first), in chunks that keep
 * the int counters from overflowing; returns a fold of the locals so the work cannot be
 * deleted (the caller hands it on). */
uint64_t dhry_runs(uint64_t iters);

#endif

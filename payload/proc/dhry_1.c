/* dhry_1.c — Dhrystone 2.1 ("dhry2reg"): the measurement loop and Proc_1..Proc_5.
 * One bench loop is one run of the specification's main loop (Number_Of_Runs += 1), so the
 * rate is Dhrystone loops per second, UnixBench's "lps" for dhry2reg.  See dhry.h.
 * Built into isobench-proc (payload/proc/Makefile: glibc, dynamically linked, as UnixBench's
 * dhry2reg is on a distribution), which runs it for the runner (bench/dhry2reg.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dhry.h"

Rec_Pointer Ptr_Glob, Next_Ptr_Glob;
int Int_Glob;
Boolean Bool_Glob;
char Ch_1_Glob, Ch_2_Glob;
Arr_1_Dim Arr_1_Glob;
Arr_2_Dim Arr_2_Glob;

static Rec_Type rec_glob, rec_next;	/* the two records the specification malloc()s once */
static int next_run = 1;

/* Proc_1..Proc_5 are ordinary external functions, as in Weicker's dhry_1.c, so the compiler
 * may inline the small ones within this file. Weicker's rules ask for no procedure merging;
 * gcc merges them anyway when byte-unixbench's Makefile builds its dhry2reg (its loop then
 * calls Proc_1, Proc_6..Proc_8, Func_1 and Func_2 only; Proc_1 calls Proc_6 and Proc_7), and
 * dhry2reg's index is defined by that binary, so ours is built to the same shape (kept out
 * of line, it read ~8% below on two AMD hosts: docs/benchmarks/fidelity-unixbench.md §9-10).
 * dhry_2.c's procedures are never merged: nothing is built with LTO. tests/test-codegen.sh
 * checks the shape. */
void Proc_1(REG Rec_Pointer Ptr_Val_Par);
void Proc_2(One_Fifty *Int_Par_Ref);
void Proc_3(Rec_Pointer *Ptr_Ref_Par);
void Proc_4(void);
void Proc_5(void);

void dhry_init(void)
{
	Next_Ptr_Glob = &rec_next;
	Ptr_Glob = &rec_glob;
	memset(&rec_next, 0, sizeof rec_next);
	memset(&rec_glob, 0, sizeof rec_glob);
	Ptr_Glob->Ptr_Comp = Next_Ptr_Glob;
	Ptr_Glob->Discr = Ident_1;
	Ptr_Glob->variant.var_1.Enum_Comp = Ident_3;
	Ptr_Glob->variant.var_1.Int_Comp = 40;
	strcpy(Ptr_Glob->variant.var_1.Str_Comp, "DHRYSTONE PROGRAM, SOME STRING");
	Int_Glob = 0;
	Bool_Glob = 0;
	Ch_1_Glob = Ch_2_Glob = '\0';
	memset(Arr_1_Glob, 0, sizeof Arr_1_Glob);
	memset(Arr_2_Glob, 0, sizeof Arr_2_Glob);
	Arr_2_Glob[8][7] = 10;
	next_run = 1;
}

void dhry_loop(int first, uint64_t n, struct dhry_locals *out)
{
	One_Fifty Int_1_Loc = 0;
	REG One_Fifty Int_2_Loc = 0;
	One_Fifty Int_3_Loc = 0;
	REG char Ch_Index;
	Enumeration Enum_Loc = Ident_1;
	Str_30 Str_1_Loc;
	Str_30 Str_2_Loc = "";
	REG int Run_Index;
	REG uint64_t left;

	strcpy(Str_1_Loc, "DHRYSTONE PROGRAM, 1'ST STRING");
	for (Run_Index = first, left = n; left; ++Run_Index, --left) {
		Proc_5();
		Proc_4();
		Int_1_Loc = 2;
		Int_2_Loc = 3;
		strcpy(Str_2_Loc, "DHRYSTONE PROGRAM, 2'ND STRING");
		Enum_Loc = Ident_2;
		Bool_Glob = !Func_2(Str_1_Loc, Str_2_Loc);
		while (Int_1_Loc < Int_2_Loc) {
			Int_3_Loc = 5 * Int_1_Loc - Int_2_Loc;
			Proc_7(Int_1_Loc, Int_2_Loc, &Int_3_Loc);
			Int_1_Loc += 1;
		}
		Proc_8(Arr_1_Glob, Arr_2_Glob, Int_1_Loc, Int_3_Loc);
		Proc_1(Ptr_Glob);
		for (Ch_Index = 'A'; Ch_Index <= Ch_2_Glob; ++Ch_Index) {
			if (Enum_Loc == Func_1(Ch_Index, 'C')) {
				Proc_6(Ident_1, &Enum_Loc);
				strcpy(Str_2_Loc, "DHRYSTONE PROGRAM, 3'RD STRING");
				Int_2_Loc = Run_Index;
				Int_Glob = Run_Index;
			}
		}
		Int_2_Loc = Int_2_Loc * Int_1_Loc;
		Int_1_Loc = Int_2_Loc / Int_3_Loc;
		Int_2_Loc = 7 * (Int_2_Loc - Int_3_Loc) - Int_1_Loc;
		Proc_2(&Int_1_Loc);
	}
	if (out) {
		out->Int_1_Loc = Int_1_Loc;
		out->Int_2_Loc = Int_2_Loc;
		out->Int_3_Loc = Int_3_Loc;
		out->Enum_Loc = Enum_Loc;
		memcpy(out->Str_1_Loc, Str_1_Loc, sizeof Str_1_Loc);
		memcpy(out->Str_2_Loc, Str_2_Loc, sizeof Str_2_Loc);
	}
}

void Proc_1(REG Rec_Pointer Ptr_Val_Par)
{
	REG Rec_Pointer Next_Record = Ptr_Val_Par->Ptr_Comp;

	*Ptr_Val_Par->Ptr_Comp = *Ptr_Glob;
	Ptr_Val_Par->variant.var_1.Int_Comp = 5;
	Next_Record->variant.var_1.Int_Comp = Ptr_Val_Par->variant.var_1.Int_Comp;
	Next_Record->Ptr_Comp = Ptr_Val_Par->Ptr_Comp;
	Proc_3(&Next_Record->Ptr_Comp);
	if (Next_Record->Discr == Ident_1) {
		Next_Record->variant.var_1.Int_Comp = 6;
		Proc_6(Ptr_Val_Par->variant.var_1.Enum_Comp, &Next_Record->variant.var_1.Enum_Comp);
		Next_Record->Ptr_Comp = Ptr_Glob->Ptr_Comp;
		Proc_7(Next_Record->variant.var_1.Int_Comp, 10, &Next_Record->variant.var_1.Int_Comp);
	} else {
		*Ptr_Val_Par = *Ptr_Val_Par->Ptr_Comp;
	}
}

void Proc_2(One_Fifty *Int_Par_Ref)
{
	One_Fifty Int_Loc;
	Enumeration Enum_Loc = Ident_2;

	Int_Loc = *Int_Par_Ref + 10;
	do
		if (Ch_1_Glob == 'A') {
			Int_Loc -= 1;
			*Int_Par_Ref = Int_Loc - Int_Glob;
			Enum_Loc = Ident_1;
		}
	while (Enum_Loc != Ident_1);
}

void Proc_3(Rec_Pointer *Ptr_Ref_Par)
{
	if (Ptr_Glob != NULL)
		*Ptr_Ref_Par = Ptr_Glob->Ptr_Comp;
	Proc_7(10, Int_Glob, &Ptr_Glob->variant.var_1.Int_Comp);
}

void Proc_4(void)
{
	Boolean Bool_Loc;

	Bool_Loc = Ch_1_Glob == 'A';
	Bool_Glob = Bool_Loc | Bool_Glob;
	Ch_2_Glob = 'B';
}

void Proc_5(void)
{
	Ch_1_Glob = 'A';
	Bool_Glob = 0;
}

#define CHECK(cond, ...) do { if (!(cond)) { snprintf(why, len, __VA_ARGS__); return -1; } } while (0)

int dhry_selfcheck(uint64_t n, char *why, size_t len)
{
	struct dhry_locals l;

	CHECK(n >= 1 && n <= (1u << 29), "n=%llu out of range", (unsigned long long)n);
	dhry_init();
	dhry_loop(1, n, &l);
	CHECK(Int_Glob == 5, "Int_Glob=%d, want 5", Int_Glob);
	CHECK(Bool_Glob == 1, "Bool_Glob=%d, want 1", Bool_Glob);
	CHECK(Ch_1_Glob == 'A', "Ch_1_Glob=%d, want 'A'", Ch_1_Glob);
	CHECK(Ch_2_Glob == 'B', "Ch_2_Glob=%d, want 'B'", Ch_2_Glob);
	CHECK(Arr_1_Glob[8] == 7, "Arr_1_Glob[8]=%d, want 7", Arr_1_Glob[8]);
	CHECK((uint64_t)Arr_2_Glob[8][7] == n + 10, "Arr_2_Glob[8][7]=%d, want %llu",
	      Arr_2_Glob[8][7], (unsigned long long)(n + 10));
	CHECK(Ptr_Glob->Ptr_Comp == Next_Ptr_Glob->Ptr_Comp, "Ptr_Glob->Ptr_Comp != Next_Ptr_Glob->Ptr_Comp");
	CHECK(Ptr_Glob->Discr == Ident_1, "Ptr_Glob->Discr=%d, want 0", Ptr_Glob->Discr);
	CHECK(Ptr_Glob->variant.var_1.Enum_Comp == Ident_3, "Ptr_Glob->Enum_Comp=%d, want 2",
	      Ptr_Glob->variant.var_1.Enum_Comp);
	CHECK(Ptr_Glob->variant.var_1.Int_Comp == 17, "Ptr_Glob->Int_Comp=%d, want 17",
	      Ptr_Glob->variant.var_1.Int_Comp);
	CHECK(!strcmp(Ptr_Glob->variant.var_1.Str_Comp, "DHRYSTONE PROGRAM, SOME STRING"),
	      "Ptr_Glob->Str_Comp=\"%s\"", Ptr_Glob->variant.var_1.Str_Comp);
	CHECK(Next_Ptr_Glob->Discr == Ident_1, "Next_Ptr_Glob->Discr=%d, want 0", Next_Ptr_Glob->Discr);
	CHECK(Next_Ptr_Glob->variant.var_1.Enum_Comp == Ident_2, "Next_Ptr_Glob->Enum_Comp=%d, want 1",
	      Next_Ptr_Glob->variant.var_1.Enum_Comp);
	CHECK(Next_Ptr_Glob->variant.var_1.Int_Comp == 18, "Next_Ptr_Glob->Int_Comp=%d, want 18",
	      Next_Ptr_Glob->variant.var_1.Int_Comp);
	CHECK(!strcmp(Next_Ptr_Glob->variant.var_1.Str_Comp, "DHRYSTONE PROGRAM, SOME STRING"),
	      "Next_Ptr_Glob->Str_Comp=\"%s\"", Next_Ptr_Glob->variant.var_1.Str_Comp);
	CHECK(l.Int_1_Loc == 5, "Int_1_Loc=%d, want 5", l.Int_1_Loc);
	CHECK(l.Int_2_Loc == 13, "Int_2_Loc=%d, want 13", l.Int_2_Loc);
	CHECK(l.Int_3_Loc == 7, "Int_3_Loc=%d, want 7", l.Int_3_Loc);
	CHECK(l.Enum_Loc == Ident_2, "Enum_Loc=%d, want 1", l.Enum_Loc);
	CHECK(!strcmp(l.Str_1_Loc, "DHRYSTONE PROGRAM, 1'ST STRING"), "Str_1_Loc=\"%s\"", l.Str_1_Loc);
	CHECK(!strcmp(l.Str_2_Loc, "DHRYSTONE PROGRAM, 2'ND STRING"), "Str_2_Loc=\"%s\"", l.Str_2_Loc);
	dhry_init();
	return 0;
}

/* Run_Index and Arr_2_Glob[8][7] are int and grow by one per run; keep them far from INT_MAX
 * (signed overflow) by cutting calls into chunks and folding the counter back between them. */
#define DHRY_CHUNK (1 << 29)

uint64_t dhry_runs(uint64_t iters)
{
	struct dhry_locals l;
	uint64_t fold = 0;

	while (iters) {
		uint64_t n = iters < DHRY_CHUNK ? iters : DHRY_CHUNK;

		if (next_run > DHRY_CHUNK)
			next_run = 1;
		if (Arr_2_Glob[8][7] > DHRY_CHUNK)
			Arr_2_Glob[8][7] -= DHRY_CHUNK;
		dhry_loop(next_run, n, &l);
		next_run += (int)n;
		iters -= n;
		fold += (uint64_t)(l.Int_1_Loc + l.Int_2_Loc + l.Int_3_Loc) + (uint64_t)Int_Glob;
	}
	return fold;
}

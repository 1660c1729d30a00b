; burst.s: a measurement, not a test and not part of any disk we ship (issue 14).
;
; Times, in VICE's x128 with true drive emulation of the 1581, the 1581's documented
; burst READ ("U0" + a command byte, track, sector, count) against the KERNAL's LOAD of a
; file of the same size, all at 2 MHz, with CIA 2's timers chained (A counts the 1 MHz
; clock, B counts A's underflows): the figures are microseconds of emulated time.
;
; Build (ca65/ld65 from cc65, cc1541), here for 40 physical 512-byte sectors from
; physical cylinder 38 and then from cylinder 0 (MODE=$80, PAGES=1, S0=0 reads logical
; 256-byte sectors instead, T and T2 then logical tracks):
;   ca65 -D MODE=0 -D T=38 -D T2=0 -D S0=1 -D NSEC=40 -D PAGES=2 burst.s -o burst.o
;   ld65 -t none -o burst.prg burst.o
;   head -c 20480 /dev/urandom | cat <(printf '\0\200') - > data.prg
;   cc1541 -n BURST -w burst.prg -f data -w data.prg burst.d81
;   node ../peek.mjs burst.d81 VDC 100 burst.png      # autostarts it; read burst-100.png
;
; It prints three lines of hex (the four bytes of a time, high first):
;   K tttttttt eeee        the KERNAL's LOAD of DATA (20,482 bytes) to $8000: time, end
;   B tttttttt ff ll ss    the burst READ from T: time, failures, sectors left, last status
;   C tttttttt ff ll       the same from T2 (a second read, the head elsewhere)
; A read that gets no byte within about 4 s counts as a failure and ends that read.
;
; How the burst READ is driven (from the 1581 DOS's burst code as published): the
; command goes through the KERNAL (OPEN 15 with it as the name); then for each sector the
; drive sends a status byte and the sector (256 bytes logical, 512 physical), one byte
; each time the computer changes its CLK line, through the fast serial port (CIA 1's
; shift register, $DC0C; flag bit 3 of $DC0D).
SETBNK = $FF68
SETLFS = $FFBA
SETNAM = $FFBD
OPEN   = $FFC0
CLOSE  = $FFC3
LOAD   = $FFD5
CHROUT = $FFD2
ptr    = $FB

        .org $1BFF
        .word $1C01                 ; load address; then 10 SYS7181
        .word basic_end, 10
        .byte $9E, "7181", 0
basic_end:
        .word 0

start:  lda #0
        tax
        jsr SETBNK                  ; data and names in bank 0
        lda #1
        sta $D030                   ; 2 MHz
        jsr timer_start             ; the KERNAL's LOAD of DATA to $8000
        lda #4
        ldx #<data_name
        ldy #>data_name
        jsr SETNAM
        lda #1
        ldx #8
        ldy #0
        jsr SETLFS
        lda #0
        ldx #$00
        ldy #$80
        jsr LOAD
        stx load_end
        sty load_end+1
        jsr timer_stop
        ldx #3
:       lda elapsed,x
        sta load_time,x
        dex
        bpl :-
        jsr burst                   ; the burst READ from T
        ldx #3
:       lda elapsed,x
        sta burst_time,x
        dex
        bpl :-
        lda failures
        sta first_failures
        lda left
        sta first_left
        lda #T2                     ; and from T2
        sta command+3
        lda #0
        sta failures
        jsr burst
        lda #0
        sta $D030                   ; 1 MHz: print

        lda #'K'
        jsr CHROUT
        ldx #3
:       lda load_time,x
        jsr hex_space
        dex
        bpl :-
        lda load_end+1
        jsr hex
        lda load_end
        jsr hex
        lda #13
        jsr CHROUT

        lda #'B'
        jsr CHROUT
        ldx #3
:       lda burst_time,x
        jsr hex_space
        dex
        bpl :-
        lda first_failures
        jsr hex_space
        lda first_left
        jsr hex_space
        lda status
        jsr hex
        lda #13
        jsr CHROUT

        lda #'C'
        jsr CHROUT
        ldx #3
:       lda elapsed,x
        jsr hex_space
        dex
        bpl :-
        lda failures
        jsr hex_space
        lda left
        jsr hex
        lda #13
        jmp CHROUT

; One burst READ of NSEC sectors of PAGES pages from track command+3 to $2000.
burst:  jsr timer_start
        lda #command_end-command
        ldx #<command
        ldy #>command
        jsr SETNAM
        lda #15
        ldx #8
        ldy #15
        jsr SETLFS
        jsr OPEN
        sei
        lda $DC0E
        and #$BF                    ; CIA 1's serial port in
        sta $DC0E
        lda $D505
        and #$F7                    ; the MMU's fast serial direction in
        sta $D505
        lda #$00
        sta ptr
        lda #$20
        sta ptr+1
        lda $DC0D                   ; clear the flags
        ldx #NSEC
@sector:
        jsr get_byte                ; the sector's status
        bcs @failed
        sta status
        and #$0F
        cmp #2
        bcs @failed
        lda #PAGES
        sta pages
@page:  ldy #0
@byte:  jsr get_byte
        bcs @failed
        sta (ptr),y
        iny
        bne @byte
        inc ptr+1
        dec pages
        bne @page
        dex
        bne @sector
        beq @done
@failed:
        inc failures
@done:  cli
        stx left
        jsr timer_stop
        lda #15
        jmp CLOSE

        .include "common.inc"

command:
        .byte "U0", MODE, T, S0, NSEC
command_end:
data_name:
        .byte "DATA"
failures:       .byte 0
first_failures: .byte 0
left:           .byte 0
first_left:     .byte 0
status:         .byte 0
pages:          .byte 0
load_end:       .word 0
wait:           .byte 0, 0, 0
elapsed:        .dword 0
load_time:      .dword 0
burst_time:     .dword 0

;; PoPLR's sieve (poplr-sieve.ts), the loop over permutations in WebAssembly SIMD: four locations at a time, in two
;; f64x2 lanes, so each date is loaded once per four locations and two sums run side by side. Each location's terms
;; are those of the table's point nearest its correlation, with that point's nearest-reading limit (poplr-table.ts).
;; Source of poplr-sieve.wasm.ts; `npm run build:wasm` compiles it (tests/analytics/poplr-sieve-build.test.ts checks
;; the two agree). Every address is a byte offset into the module's memory, laid out by poplr-sieve.ts:
;;   dates  per order, its `visits` dates (f64), the visit count even (a padded visit has date 0)
;;   y      per four locations, per visit: their four centred values (two f64x2), four after four
;;   grid   per four locations: their factors taking c = sum x y to a grid position (two f64x2)
;;   table  per grid point, 48 bytes: (left, right) f64x2 at 0, the nearest-reading limit f64 at 40
;;   flags  one byte per order, written here: 1 left statistic below the observed one, 2 right below, 4 undecided
;;          (within the summed limits of either observed statistic: poplr.ts reads that order again)
(module
  (memory (export "memory") 1)
  (func (export "sieve")
    (param $orders i32) (param $visits i32) (param $quads i32)
    (param $dates i32) (param $y i32) (param $grid i32) (param $table i32) (param $flags i32)
    ;; $centre: the grid's middle point (r = 0); $top: its last (r = 1)
    (param $centre f64) (param $top f64) (param $constLeft f64) (param $constRight f64)
    (param $obsLeft f64) (param $obsRight f64)
    (local $q i32) (local $x i32) (local $quad i32) (local $yp i32) (local $xp i32) (local $xEnd i32) (local $gp i32)
    (local $p i32) (local $flag i32)
    (local $a v128) (local $b v128) (local $xs v128) (local $i v128)
    (local $termsA v128) (local $termsB v128) (local $bandA f64) (local $bandB f64)
    (local $sl f64) (local $sr f64) (local $band f64)
    (local $zero v128) (local $centres v128) (local $tops v128) (local $round v128)
    (local.set $centres (f64x2.splat (local.get $centre)))
    ;; Adding 2^52 to a position in [0, 2^31) leaves the nearest whole number in the low 32 bits of its lane.
    (local.set $round (f64x2.splat (f64.const 0x1p52)))
    (local.set $tops (f64x2.splat (local.get $top)))
    ;; order 0 is the observed one
    (local.set $q (i32.const 1))
    (local.set $x (i32.add (local.get $dates) (i32.shl (local.get $visits) (i32.const 3))))
    (block $done
      (loop $order
        (br_if $done (i32.ge_u (local.get $q) (local.get $orders)))
        (local.set $termsA (f64x2.replace_lane 1 (f64x2.splat (local.get $constLeft)) (local.get $constRight)))
        (local.set $termsB (local.get $zero))
        (local.set $bandA (f64.const 0))
        (local.set $bandB (f64.const 0))
        (local.set $xEnd (i32.add (local.get $x) (i32.shl (local.get $visits) (i32.const 3))))
        (local.set $yp (local.get $y))
        (local.set $gp (local.get $grid))
        (local.set $quad (i32.const 0))
        (block $quadsDone
          (loop $nextQuad
            (br_if $quadsDone (i32.ge_u (local.get $quad) (local.get $quads)))
            ;; c of the four locations: their values times the order's dates, two visits a turn
            (local.set $a (local.get $zero))
            (local.set $b (local.get $zero))
            (local.set $xp (local.get $x))
            (loop $visit
              (local.set $xs (v128.load64_splat (local.get $xp)))
              (local.set $a (f64x2.add (local.get $a) (f64x2.mul (local.get $xs) (v128.load (local.get $yp)))))
              (local.set $b (f64x2.add (local.get $b) (f64x2.mul (local.get $xs) (v128.load offset=16 (local.get $yp)))))
              (local.set $xs (v128.load64_splat offset=8 (local.get $xp)))
              (local.set $a (f64x2.add (local.get $a) (f64x2.mul (local.get $xs) (v128.load offset=32 (local.get $yp)))))
              (local.set $b (f64x2.add (local.get $b) (f64x2.mul (local.get $xs) (v128.load offset=48 (local.get $yp)))))
              (local.set $xp (i32.add (local.get $xp) (i32.const 16)))
              (local.set $yp (i32.add (local.get $yp) (i32.const 64)))
              (br_if $visit (i32.lt_u (local.get $xp) (local.get $xEnd))))
            ;; the first two locations' nearest points, kept on the grid (rounding can take |r| a hair past 1), then
            ;; each one's terms and limit
            (local.set $i (f64x2.add (local.get $round) (f64x2.pmin (f64x2.pmax
              (f64x2.add (f64x2.mul (local.get $a) (v128.load (local.get $gp))) (local.get $centres))
              (local.get $zero)) (local.get $tops))))
            (local.set $p (i32.add (local.get $table) (i32.mul (i32x4.extract_lane 0 (local.get $i)) (i32.const 48))))
            (local.set $termsA (f64x2.add (local.get $termsA) (v128.load (local.get $p))))
            (local.set $bandA (f64.add (local.get $bandA) (f64.load offset=40 (local.get $p))))
            (local.set $p (i32.add (local.get $table) (i32.mul (i32x4.extract_lane 2 (local.get $i)) (i32.const 48))))
            (local.set $termsB (f64x2.add (local.get $termsB) (v128.load (local.get $p))))
            (local.set $bandB (f64.add (local.get $bandB) (f64.load offset=40 (local.get $p))))
            ;; the other two
            (local.set $i (f64x2.add (local.get $round) (f64x2.pmin (f64x2.pmax
              (f64x2.add (f64x2.mul (local.get $b) (v128.load offset=16 (local.get $gp))) (local.get $centres))
              (local.get $zero)) (local.get $tops))))
            (local.set $p (i32.add (local.get $table) (i32.mul (i32x4.extract_lane 0 (local.get $i)) (i32.const 48))))
            (local.set $termsA (f64x2.add (local.get $termsA) (v128.load (local.get $p))))
            (local.set $bandA (f64.add (local.get $bandA) (f64.load offset=40 (local.get $p))))
            (local.set $p (i32.add (local.get $table) (i32.mul (i32x4.extract_lane 2 (local.get $i)) (i32.const 48))))
            (local.set $termsB (f64x2.add (local.get $termsB) (v128.load (local.get $p))))
            (local.set $bandB (f64.add (local.get $bandB) (f64.load offset=40 (local.get $p))))
            (local.set $gp (i32.add (local.get $gp) (i32.const 32)))
            (local.set $quad (i32.add (local.get $quad) (i32.const 1)))
            (br $nextQuad)))
        (local.set $termsA (f64x2.add (local.get $termsA) (local.get $termsB)))
        (local.set $sl (f64x2.extract_lane 0 (local.get $termsA)))
        (local.set $sr (f64x2.extract_lane 1 (local.get $termsA)))
        (local.set $band (f64.add (local.get $bandA) (local.get $bandB)))
        (if (i32.or
              (f64.le (f64.abs (f64.sub (local.get $sl) (local.get $obsLeft))) (local.get $band))
              (f64.le (f64.abs (f64.sub (local.get $sr) (local.get $obsRight))) (local.get $band)))
          (then (local.set $flag (i32.const 4)))
          (else (local.set $flag (i32.or
            (f64.lt (local.get $sl) (local.get $obsLeft))
            (i32.shl (f64.lt (local.get $sr) (local.get $obsRight)) (i32.const 1))))))
        (i32.store8 (i32.add (local.get $flags) (local.get $q)) (local.get $flag))
        (local.set $x (local.get $xEnd))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $order)))))
